import { ConfigError } from '../config.js';
import type { SeedLog } from './seed/index.js';

/** Plain lines for the command-line scripts (db:reset, db:seed): people read these, not machines. */
export const consoleLog: SeedLog = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

/** Runs a script body; a bad configuration prints its message alone, other failures their stack. */
export async function runCli(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  }
}
