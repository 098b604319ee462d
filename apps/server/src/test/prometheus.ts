/**
 * A reader of Prometheus's text exposition format (version 0.0.4), for the tests: what a scraper
 * would see, sample by sample, so they assert on values rather than on the text's shape.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** `# TYPE name type` lines. */
  types: Map<string, string>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

function readValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // As Prometheus reads them (Go's ParseFloat): case-insensitive; prom-client writes NaN as `Nan`.
  if (text.toLowerCase() === 'nan') return Number.NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`Not a sample value: ${text}`);
  return value;
}

/** `{a="x",b="y\"z"}` from `from` (at the brace): the labels and where they end. */
function readLabels(line: string, from: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = from + 1;
  while (line[i] !== '}') {
    const name = NAME.exec(line.slice(i))?.[0];
    if (!name || line[i + name.length] !== '=' || line[i + name.length + 1] !== '"') {
      throw new Error(`Bad label in: ${line}`);
    }
    i += name.length + 2;
    let value = '';
    for (; line[i] !== '"'; i += 1) {
      if (i >= line.length) throw new Error(`Unterminated label value in: ${line}`);
      if (line[i] === '\\') {
        i += 1;
        value += line[i] === 'n' ? '\n' : line[i];
      } else value += line[i];
    }
    labels[name] = value;
    i += 1;
    if (line[i] === ',') i += 1;
  }
  return { labels, end: i + 1 };
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      else if (!line.startsWith('# HELP ')) throw new Error(`Unknown comment: ${line}`);
      continue;
    }
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`Not a sample: ${line}`);
    let labels: Record<string, string> = {};
    let rest = line.slice(name.length);
    if (rest.startsWith('{')) {
      const read = readLabels(line, name.length);
      labels = read.labels;
      rest = line.slice(read.end);
    }
    // A value, then perhaps a timestamp.
    const [value] = rest.trim().split(/\s+/);
    samples.push({ name, labels, value: readValue(value ?? '') });
  }
  return { samples, types };
}

/** The samples named so whose labels include `labels`. */
export function samplesOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The sum of those samples' values; 0 when there is none (a labelled series not yet made). */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(exposition, name, labels).reduce((sum, s) => sum + s.value, 0);
}
