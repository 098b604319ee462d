/**
 * A pixel-art icon on a 16 x 16 grid, drawn by `d` (rectangles) in the text's colour, hidden from
 * screen readers: its button or link carries the name.
 */
export function PixelIcon({ d, className = 'h-6 w-6' }: { d: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 16 16"
      className={className}
      shapeRendering="crispEdges"
      aria-hidden="true"
      focusable="false"
    >
      <path fill="currentColor" d={d} />
    </svg>
  );
}
