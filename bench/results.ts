import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

/**
 * Replaces one benchmark's section of bench/RESULTS.md (between its begin/end markers), keeping the
 * notes and every other benchmark's figures as they are.
 */
export function writeSection(name: string, title: string, body: string): void {
  let text: string;
  try {
    text = readFileSync(RESULTS_FILE, 'utf8');
  } catch {
    text = '# Benchmark results\n';
  }
  const begin = `<!-- begin ${name} -->`;
  const end = `<!-- end ${name} -->`;
  const section = `${begin}\n## ${title}\n\n${body.trim()}\n${end}`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  text =
    from >= 0 && to > from
      ? text.slice(0, from) + section + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS_FILE, text);
}
