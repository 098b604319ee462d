import type { Metric } from 'prom-client';

/**
 * The request duration histogram (issue 37), counted by hand rather than through prom-client's
 * Histogram: its observe() builds a label object and hashes it on every call, and the catalogue's
 * fast path answers tens of thousands of requests a second. Here a request costs two map reads (route,
 * method), an array slot (status class), a short loop over the buckets and three additions; no
 * allocation. prom-client still writes the exposition text (the metric objects below answer its
 * get() with the usual shape), so the format is its own.
 */

/** Upper bounds in seconds: the catalogue answers in well under a millisecond, a checkout in tens. */
export const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

/** What requests that match no route are counted under: a raw URL never becomes a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods counted by name; anything else (node's parser knows about 30 more) is OTHER. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const STATUS_CLASSES = ['', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

interface Labels {
  readonly method: string;
  readonly route: string;
  readonly status_class: string;
}

/** One (method, route, status class): its buckets (not cumulative: summed at scrape), sum and count. */
class Series {
  readonly buckets = new Float64Array(DURATION_BUCKETS.length);
  sum = 0;
  count = 0;
  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i += 1;
    if (i < DURATION_BUCKETS.length) this.buckets[i]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** One method's series on a route, by status class (index 1..5). */
interface MethodRow {
  readonly method: string;
  readonly classes: (Series | undefined)[];
}

/** A route pattern's series, made on first use, and its 429 count. */
export class RouteSeries {
  /** Per method name as sent (every method not in METHODS shares OTHER's row). */
  readonly byMethod = new Map<string, MethodRow>();
  rateLimited = 0;
  constructor(readonly route: string) {}
}

export interface HttpMetrics {
  /** The series of a route pattern (`/api/products/:id`), the same object for every caller. */
  route(pattern: string): RouteSeries;
  /** One answered request. `seconds`: from its arrival to its answer. */
  observe(route: RouteSeries, method: string, status: number, seconds: number): void;
  /** For the registry: the histogram and the rate-limit refusals by route. */
  metrics: Metric[];
}

export function createHttpMetrics(prefix: string): HttpMetrics {
  const routes = new Map<string, RouteSeries>();

  function route(pattern: string): RouteSeries {
    let found = routes.get(pattern);
    if (found === undefined) routes.set(pattern, (found = new RouteSeries(pattern)));
    return found;
  }

  /** The first request of a method on a route: its row of series. */
  function rowOf(route: RouteSeries, method: string): MethodRow {
    const name = (METHODS as readonly string[]).includes(method) ? method : 'OTHER';
    let row = route.byMethod.get(name);
    if (row === undefined) route.byMethod.set(name, (row = { method: name, classes: [] }));
    route.byMethod.set(method, row);
    return row;
  }

  function observe(route: RouteSeries, method: string, status: number, seconds: number): void {
    const row = route.byMethod.get(method) ?? rowOf(route, method);
    // Node sends 100..999; anything past 5xx is counted with the server errors.
    const klass = Math.min(5, Math.max(1, (status / 100) | 0));
    let series = row.classes[klass];
    if (series === undefined) {
      const labels = { method: row.method, route: route.route, status_class: STATUS_CLASSES[klass]! };
      series = row.classes[klass] = new Series(labels);
    }
    series.observe(seconds);
    if (status === 429) route.rateLimited += 1;
  }

  /** Every series once (a method's row may be filed under several names: OTHER's is). */
  function allSeries(): Series[] {
    const seen = new Set<Series>();
    for (const r of routes.values()) {
      for (const row of r.byMethod.values()) {
        for (const series of row.classes) if (series) seen.add(series);
      }
    }
    return [...seen];
  }

  const histogramName = `${prefix}http_request_duration_seconds`;
  const histogram = {
    name: histogramName,
    help: 'Time from a request arriving to its answer, by method, route pattern and status class.',
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const series of allSeries()) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += series.buckets[i]!;
          values.push({
            labels: { ...series.labels, le },
            value: cumulative,
            metricName: `${histogramName}_bucket`,
          });
        });
        values.push({
          labels: { ...series.labels, le: '+Inf' },
          value: series.count,
          metricName: `${histogramName}_bucket`,
        });
        values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${histogramName}_sum` });
        values.push({
          labels: { ...series.labels },
          value: series.count,
          metricName: `${histogramName}_count`,
        });
      }
      return { name: histogramName, help: histogram.help, type: 'histogram', values, aggregator: 'sum' };
    },
  };

  const limitedName = `${prefix}rate_limit_refusals_total`;
  const limited = {
    name: limitedName,
    help: 'Requests refused by a rate limit (answered 429), by route pattern.',
    type: 'counter',
    aggregator: 'sum',
    get() {
      const values = [...routes.values()]
        .filter((r) => r.rateLimited > 0)
        .map((r) => ({ labels: { route: r.route }, value: r.rateLimited }));
      return { name: limitedName, help: limited.help, type: 'counter', values, aggregator: 'sum' };
    },
  };

  return { route, observe, metrics: [histogram, limited] as unknown as Metric[] };
}

/** The catalogue routes the fast path (lib/fast-answers.ts) answers, as fastify's router names them. */
export const CATALOGUE_ROUTES = [
  '/api/products',
  '/api/products/facets',
  '/api/products/suggest',
  '/api/products/:id',
] as const;

const LIST_END = '/api/products'.length;
const QUESTION = 63;

/** The end of `word` at `from` in `url`: the path ends there (end of URL or a query). */
function pathIs(url: string, from: number, word: string): boolean {
  const end = from + word.length;
  return url.startsWith(word, from) && (url.length === end || url.charCodeAt(end) === QUESTION);
}

/**
 * Which of CATALOGUE_ROUTES a URL the fast path answered is (index): it answers only the URLs
 * products.lookup.ts reads, so the path is /api/products, /api/products/facets, /api/products/suggest
 * or /api/products/<id>. Read in place, without slicing the URL.
 */
export function catalogueRouteOf(url: string): number {
  if (url.length === LIST_END || url.charCodeAt(LIST_END) === QUESTION) return 0;
  if (pathIs(url, LIST_END + 1, 'facets')) return 1;
  if (pathIs(url, LIST_END + 1, 'suggest')) return 2;
  return 3;
}
