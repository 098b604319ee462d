import type { Ref } from 'react';
import { LabelledField } from '../../ui/LabelledField';

/**
 * Which code is asked for: the 6 digits of the authenticator app, a one-time recovery code, or either
 * (turning it off and new recovery codes take both).
 */
export type CodeKind = 'totp' | 'recovery' | 'any';

export const CODE_LABELS: Record<CodeKind, string> = {
  totp: 'Authentication code',
  recovery: 'Recovery code',
  any: 'Authentication code',
};

/** A refused code: the keyboard back in the field, the code selected to type over. */
export function selectCode(input: HTMLInputElement | null) {
  input?.focus();
  input?.select();
}

/**
 * The one field of a second-factor code (issue 36): digits on a phone's number pad and offered from an
 * SMS or the password manager (`one-time-code`) for an app's code; letters for a recovery code.
 */
export function CodeField({
  kind,
  value,
  onChange,
  hint,
  inputRef,
  label = CODE_LABELS[kind],
}: {
  kind: CodeKind;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
  label?: string;
}) {
  return (
    <LabelledField label={label} {...(hint ? { hint } : {})}>
      {({ id, describedBy }) => (
        <input
          id={id}
          ref={inputRef}
          aria-describedby={describedBy}
          className="field w-full bg-zinc-950 font-mono tracking-widest"
          name={kind === 'totp' ? 'code' : 'recoveryCode'}
          type="text"
          inputMode={kind === 'totp' ? 'numeric' : 'text'}
          autoComplete={kind === 'recovery' ? 'off' : 'one-time-code'}
          autoCapitalize="none"
          spellCheck={false}
          required
          maxLength={40}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </LabelledField>
  );
}
