import { useEffect, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The value after typing has paused, so a search does not send a request per key. While `value` and
 * the returned value differ, the search is pending and lists show no stale results.
 */
export function useDebouncedValue(value: string, ms = SEARCH_DEBOUNCE_MS): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
