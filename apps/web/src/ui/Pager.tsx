export interface PagerProps {
  /** The page asked for: the buttons go one before and one after it. */
  page: number;
  /** The page the list shows (as the server answered it), when it differs while the next one loads. */
  shownPage?: number;
  totalPage: number;
  /** What the navigation is called for a screen reader, e.g. "Pages", "Review pages". */
  label: string;
  /** The first button's text ("Prev" on the catalogue, as the spec shows it). */
  previousText?: string;
  /** While the next page loads, both buttons wait. */
  busy?: boolean;
  onPage: (page: number) => void;
  className?: string;
}

/** Previous / "Page N of M" / Next, for any paged list; nothing when there is one page. */
export function Pager({
  page,
  shownPage = page,
  totalPage,
  label,
  previousText = 'Previous',
  busy = false,
  onPage,
  className = '',
}: PagerProps) {
  if (totalPage <= 1) return null;
  return (
    <nav aria-label={label} className={`flex items-center justify-center gap-4 ${className}`}>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page <= 1 || busy}
        onClick={() => onPage(page - 1)}
      >
        {previousText}
      </button>
      <span className="text-zinc-300" aria-live="polite">
        Page {shownPage} of {totalPage}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page >= totalPage || busy}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
