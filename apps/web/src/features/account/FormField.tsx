import type { InputHTMLAttributes } from 'react';
import { LabelledField } from '../../ui/LabelledField';

type FormFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
  label: string;
  /** A rule shown under the field and announced with it (e.g. the password length). */
  hint?: string;
};

/** A labelled input for the account forms: visible label, visible focus, hint tied by aria-describedby. */
export function FormField({ label, hint, ...input }: FormFieldProps) {
  return (
    <LabelledField label={label} {...(hint ? { hint } : {})}>
      {({ id, describedBy }) => (
        <input id={id} aria-describedby={describedBy} className="field w-full bg-zinc-950" {...input} />
      )}
    </LabelledField>
  );
}
