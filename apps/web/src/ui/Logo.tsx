/** Pixel Vault's mark: a pixel vault door (decorative; the brand name is always next to it). */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 16 16"
      className={className}
      shapeRendering="crispEdges"
      aria-hidden="true"
      focusable="false"
    >
      <path fill="#a3e635" d="M1 1h14v14H1z" />
      <path fill="#09090b" d="M2 2h12v12H2z" />
      <path fill="#a3e635" d="M3 3h10v10H3z" />
      <path fill="#18181b" d="M4 4h8v8H4z" />
      <path fill="#e879f9" d="M6 6h4v4H6z" />
      <path fill="#22d3ee" d="M7 4h2v2H7zM7 10h2v2H7zM4 7h2v2H4zM10 7h2v2h-2z" />
      <path fill="#09090b" d="M7 7h2v2H7z" />
    </svg>
  );
}
