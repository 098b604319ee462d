import type { ReactNode } from 'react';

/** A label/value row of an order's facts, as a description list entry. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-zinc-800 py-2">
      <dt className="text-zinc-400">{label}</dt>
      <dd className="font-semibold break-all text-zinc-100">{children}</dd>
    </div>
  );
}
