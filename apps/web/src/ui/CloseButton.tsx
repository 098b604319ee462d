import { PixelIcon } from './PixelIcon';

/** The pixel-art × of a panel or drawer (the cart, the filters): a button named by `label`. */
export function CloseButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} aria-label={label} className="icon-btn">
      <PixelIcon
        className="h-5 w-5"
        d="M2 2h2v2H2zM4 4h2v2H4zM6 6h4v4H6zM10 4h2v2h-2zM12 2h2v2h-2zM4 10h2v2H4zM2 12h2v2H2zM10 10h2v2h-2zM12 12h2v2h-2z"
      />
    </button>
  );
}
