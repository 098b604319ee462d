const INVADER = [
  '..X.....X..',
  '...X...X...',
  '..XXXXXXX..',
  '.XX.XXX.XX.',
  'XXXXXXXXXXX',
  'X.XXXXXXX.X',
  'X.X.....X.X',
  '...XX.XX...',
];

/** Pixel-art sprite drawn from a character grid (decorative). */
export function PixelSprite({ className = '' }: { className?: string }) {
  const rects = INVADER.flatMap((row, y) =>
    [...row].flatMap((cell, x) =>
      cell === 'X' ? [<rect key={`${x}-${y}`} x={x} y={y} width="1" height="1" />] : [],
    ),
  );
  return (
    <svg
      viewBox={`0 0 ${INVADER[0]?.length ?? 0} ${INVADER.length}`}
      className={className}
      shapeRendering="crispEdges"
      aria-hidden="true"
      focusable="false"
    >
      <g fill="currentColor">{rects}</g>
    </svg>
  );
}
