import { ConfigError } from '../config.js';
import type { SeedLog } from '../db/seed/index.js';
import { redactUrl } from '../lib/urls.js';

/**
 * Plain lines for the command-line scripts (db:reset, db:seed, db:restore): people read these, not
 * machines. The scripts are wiring like main.ts (issue 15): they read the settings and hand them to db/.
 */
export const consoleLog: SeedLog = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

/** A refusal meant for a person: its message alone is printed, no stack (exit code 1). */
export class CliError extends Error {
  override name = 'CliError';
}

/** Runs a script body; a bad configuration or a refusal prints its message alone, other failures their stack. */
export async function runCli(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    console.error(error instanceof ConfigError || error instanceof CliError ? error.message : error);
    process.exitCode = 1;
  }
}

/** Never print a database password. */
export const redactDatabaseUrl = (url: string): string => redactUrl(url, 'the database');
