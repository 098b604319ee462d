/** Loading indicator with an accessible name (spec: "Spinner while loading"). */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex justify-center py-8">
      <span
        aria-hidden="true"
        className="inline-block h-10 w-10 animate-spin border-4 border-lime-400 border-t-transparent"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
