import { useId, type InputHTMLAttributes } from 'react';

type FormFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
  label: string;
  /** A rule shown under the field and announced with it (e.g. the password length). */
  hint?: string;
};

/** A labelled input for the account forms: visible label, visible focus, hint tied by aria-describedby. */
export function FormField({ label, hint, ...input }: FormFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">
        {label}
      </label>
      <input id={id} aria-describedby={hintId} className="field w-full bg-zinc-950" {...input} />
      {hint && (
        <p id={hintId} className="text-xs text-zinc-400">
          {hint}
        </p>
      )}
    </div>
  );
}
