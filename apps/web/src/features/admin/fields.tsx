import type { InputHTMLAttributes } from 'react';
import { LabelledField } from '../../ui/LabelledField';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange' | 'value'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Said under the input, and announced with it. */
  hint?: string;
};

/** A labelled input of the admin forms (visible label, visible focus). */
export function Field({ label, value, onChange, hint, ...input }: FieldProps) {
  return (
    <LabelledField label={label} hint={hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          className="field w-full"
          value={value}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          {...input}
        />
      )}
    </LabelledField>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  required,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  return (
    <LabelledField label={label}>
      {({ id }) => (
        <textarea
          id={id}
          rows={4}
          className="field w-full"
          value={value}
          required={required}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </LabelledField>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  optionLabel = (option) => option,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly string[];
  /** What a person reads for an option (its value is sent): "Retro Games" for `retro-games`. */
  optionLabel?: (option: string) => string;
}) {
  return (
    <LabelledField label={label}>
      {({ id }) => (
        <select
          id={id}
          className="field w-full"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/** Pager for admin lists: shown only when there is more than one page. */
export function Pager({
  page,
  totalPage,
  onPage,
}: {
  page: number;
  totalPage: number;
  onPage: (page: number) => void;
}) {
  if (totalPage <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center gap-3">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="text-zinc-300">
        Page {page} of {totalPage}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page >= totalPage}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
