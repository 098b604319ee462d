import { useEffect, useRef } from 'react';
import type { FilterChip } from './listing';

/**
 * Issue 33: the chosen filters above the list, each a button that removes it ("Remove filter
 * Platform: Nintendo 64"), and "Clear all". Focus stays in the row as chips go (on the next chip,
 * else on `afterAll`, the list's heading or count), never on the page's start.
 */
export function FilterChips({
  chips,
  onRemove,
  onClear,
  focusAfterAll,
}: {
  chips: FilterChip[];
  onRemove: (chip: FilterChip) => void;
  onClear: () => void;
  /** Where focus goes once no chip is left. */
  focusAfterAll: () => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  // The chip removed and how many there were: focus moves once the row shows one fewer (the URL's
  // change may render after the click's own).
  const removal = useRef<{ index: number; from: number } | null>(null);
  const count = chips.length;

  useEffect(() => {
    const removed = removal.current;
    if (removed === null || count >= removed.from) return;
    removal.current = null;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-chip]');
    if (count === 0 || !buttons || buttons.length === 0) focusAfterAll();
    else buttons[Math.min(removed.index, buttons.length - 1)]?.focus();
  }, [count, focusAfterAll]);

  if (count === 0) return null;
  return (
    <div className="mb-6 flex flex-wrap items-center gap-2">
      <ul ref={listRef} aria-label="Chosen filters" className="flex flex-wrap gap-2">
        {chips.map((chip, index) => (
          <li key={chip.key}>
            <button
              type="button"
              data-chip=""
              aria-label={`Remove filter ${chip.label}`}
              onClick={() => {
                removal.current = { index, from: count };
                onRemove(chip);
              }}
              className="inline-flex min-h-11 items-center gap-2 border-2 border-cyan-300 px-3 py-1 text-sm text-cyan-100 hover:bg-cyan-300 hover:text-zinc-950"
            >
              {chip.label}
              <span aria-hidden="true" className="text-base leading-none">
                ×
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => {
          removal.current = { index: 0, from: count };
          onClear();
        }}
        className="min-h-11 px-2 text-sm font-semibold text-lime-300 underline underline-offset-4 hover:text-lime-200"
      >
        Clear all
      </button>
    </div>
  );
}
