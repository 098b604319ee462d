import { useId, useState, type ReactNode } from 'react';
import { CloseButton } from '../../ui/CloseButton';
import { Modal } from '../../ui/Modal';

/**
 * Issue 33: the filters on a phone (below 1024 px): a "Filters" button naming how many are chosen opens
 * them in a side dialog (focus kept inside, Escape closes it); they apply at once, and "Show N results"
 * closes it on the list.
 */
export function FiltersDrawer({
  active,
  total,
  onClear,
  children,
}: {
  /** How many filters are chosen. */
  active: number;
  /** How many products the chosen filters give (undefined while unknown). */
  total: number | undefined;
  onClear: () => void;
  /** The filter panel. */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const close = () => setOpen(false);
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className="btn btn-secondary min-h-11 px-4 py-2 lg:hidden"
      >
        Filters{active > 0 ? ` (${active})` : ''}
      </button>
      {open && (
        <Modal variant="side" labelledBy={titleId} onClose={close}>
          <div className="flex items-center justify-between border-b-4 border-zinc-800 px-5 py-3">
            <h2 id={titleId} className="pixel-heading text-base text-lime-300">
              Filters
            </h2>
            <CloseButton label="Close filters" onClick={close} />
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">{children}</div>
          <div className="flex items-center gap-3 border-t-4 border-zinc-800 px-5 py-3">
            {active > 0 && (
              <button
                type="button"
                onClick={onClear}
                className="min-h-11 px-2 text-sm font-semibold text-lime-300 underline underline-offset-4"
              >
                Clear all
              </button>
            )}
            <button type="button" onClick={close} className="btn btn-primary flex-1">
              {total === undefined ? 'Show results' : `Show ${total} ${total === 1 ? 'result' : 'results'}`}
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
