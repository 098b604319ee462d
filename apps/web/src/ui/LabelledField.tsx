import { useId, type ReactNode } from 'react';

/**
 * A form control with its visible label, and an optional hint announced with it. The control is
 * rendered by `children` with the ids to wire up, so inputs, textareas and selects share one look.
 */
export function LabelledField({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">
        {label}
      </label>
      {children({ id, describedBy: hintId })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-400">
          {hint}
        </p>
      )}
    </div>
  );
}
