import { PASSWORD_MIN } from '@pixel-vault/shared';

export interface PasswordStrength {
  /** 0 (too short) to 4 (strong): how many bars of the meter are lit. */
  score: 0 | 1 | 2 | 3 | 4;
  label: 'Too short' | 'Weak' | 'Fair' | 'Good' | 'Strong';
  /** What would make it stronger, if anything. */
  tip: string | null;
}

const LONG = 12;
const VERY_LONG = 16;

/** Kinds of characters used: lower case, upper case, digits, anything else. */
function variety(password: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((kind) => kind.test(password)).length;
}

/**
 * A hint, not a rule (the rule is the shared NewPassword schema): length counts most, then the mix of
 * character kinds. Deliberately small: a dictionary-based estimator would weigh more than the page.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < PASSWORD_MIN) {
    return { score: 0, label: 'Too short', tip: `Use at least ${PASSWORD_MIN} characters.` };
  }
  const kinds = variety(password);
  // One character repeated is long but guessable.
  const repeated = new Set(password).size <= 2;
  const points = repeated
    ? 0
    : Number(password.length >= LONG) +
      Number(password.length >= VERY_LONG) +
      Number(kinds >= 2) +
      Number(kinds >= 3);
  const label = points === 0 ? 'Weak' : points === 1 ? 'Fair' : points === 2 ? 'Good' : 'Strong';
  const score = points === 0 ? 1 : points === 1 ? 2 : points === 2 ? 3 : 4;
  const tip = repeated
    ? 'Avoid repeating the same characters.'
    : password.length < LONG
      ? `Longer is stronger: try ${LONG} characters or more.`
      : kinds < 3 && points < 3
        ? 'Mix in capitals, numbers or symbols.'
        : null;
  return { score, label, tip };
}

/** The field's hint: the rule, then how strong the typed password looks. */
export function passwordHint(password: string): string {
  const rule = `At least ${PASSWORD_MIN} characters.`;
  if (!password) return rule;
  const { label, tip } = passwordStrength(password);
  return [rule, `Strength: ${label}.`, tip].filter(Boolean).join(' ');
}
