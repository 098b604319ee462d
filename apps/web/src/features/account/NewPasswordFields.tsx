import { NewPassword } from '@pixel-vault/shared';
import { FormField } from './FormField';
import { passwordHint, passwordStrength } from './passwordStrength';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** The first problem with a new password and its confirmation: the shared rules, then the match. */
export function newPasswordProblem(password: string, confirm: string): string | null {
  const parsed = NewPassword.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Please check the password';
  return password === confirm ? null : PASSWORDS_DO_NOT_MATCH;
}

const BAR_COLOURS = ['bg-red-500', 'bg-red-500', 'bg-amber-400', 'bg-lime-400', 'bg-lime-400'] as const;

/** Four bars under the field; the words are in the field's hint, which is announced with it. */
function StrengthMeter({ password }: { password: string }) {
  const { score } = passwordStrength(password);
  return (
    <div aria-hidden="true" data-testid="strength-meter" data-score={score} className="-mt-2 flex gap-1">
      {[1, 2, 3, 4].map((bar) => (
        <span
          key={bar}
          className={`h-1.5 flex-1 ${password && bar <= Math.max(score, 1) ? BAR_COLOURS[score] : 'bg-zinc-700'}`}
        />
      ))}
    </div>
  );
}

/** New password twice, with a strength hint: shared by the reset page and My Account. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
}: {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
}) {
  return (
    <>
      <FormField
        label="New Password"
        type="password"
        name="newPassword"
        autoComplete="new-password"
        required
        hint={passwordHint(password)}
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
      />
      <StrengthMeter password={password} />
      <FormField
        label="Confirm New Password"
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
      />
    </>
  );
}
