import { useEffect, useId, useState } from 'react';

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

/** A labelled search input (the label is for screen readers; the placeholder says the same). */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="field w-full"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
