import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RecoveryCode, TotpCode } from '@pixel-vault/shared';
import { failedStatus, readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { submitButtonClass } from './AuthPanel';
import { CodeField, selectCode, type CodeKind } from './CodeField';
import { useLoginTwoFactorMutation } from './twoFactorApi';

/**
 * A 401 that ends the challenge itself (it expired, or took too many wrong codes): the server's message
 * asks to log in again, and only the password step can start a new one.
 */
export function isChallengeOver(error: unknown): boolean {
  if (failedStatus(error) !== 401) return false;
  const data = (error as { data?: { message?: unknown; code?: unknown } }).data;
  if (data?.code === 'TWO_FACTOR_EXPIRED') return true;
  return typeof data?.message === 'string' && /log in again/i.test(data.message);
}

type LoginCodeKind = Exclude<CodeKind, 'any'>;

const HINTS: Record<LoginCodeKind, string> = {
  totp: 'The 6-digit code your authenticator app shows for Pixel Vault.',
  recovery: 'One of the recovery codes you saved when you turned on two-factor sign-in. Each works once.',
};

/**
 * The login's second step (issue 36), in place of the password form once the login answered a
 * challenge: one code field (the app's code, or a recovery code), sent with the challenge. Success
 * stores the user info with the same `loggedIn` as a password login, so the page goes on exactly as
 * after one (redirect, cart merge). A challenge that is over sends the person back with the message.
 */
export function LoginCodeStep({
  challenge,
  onChallengeOver,
}: {
  challenge: string;
  onChallengeOver: (message: string) => void;
}) {
  const [loginTwoFactor, { isLoading, error, reset }] = useLoginTwoFactorMutation();
  const [kind, setKind] = useState<LoginCodeKind>('totp');
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // The field takes the keyboard when the step appears and when the kind of code changes.
  useEffect(() => {
    inputRef.current?.focus();
  }, [kind]);

  function switchKind() {
    setKind((k) => (k === 'totp' ? 'recovery' : 'totp'));
    setCode('');
    setInvalid(null);
    reset();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = (kind === 'totp' ? TotpCode : RecoveryCode).safeParse(code);
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the code');
      inputRef.current?.focus();
      return;
    }
    setInvalid(null);
    // The app's code without the space apps show; a recovery code as it was written down.
    const sent = kind === 'totp' ? parsed.data : code.trim();
    await loginTwoFactor({ challenge, code: sent })
      .unwrap()
      .catch((e: unknown) => {
        if (isChallengeOver(e)) onChallengeOver(readableError(e));
        else selectCode(inputRef.current);
      });
  }

  const shownError = invalid ?? (error && !isChallengeOver(error) ? readableError(error) : null);

  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
      aria-busy={isLoading}
      aria-labelledby="two-factor-step-title"
    >
      <h2 id="two-factor-step-title" className="text-lg font-semibold text-lime-300">
        Two-factor sign-in
      </h2>
      <p className="text-sm text-zinc-300">
        {kind === 'totp'
          ? 'Open your authenticator app and enter the code it shows for Pixel Vault.'
          : 'Enter one of your recovery codes.'}
      </p>
      <CodeField kind={kind} value={code} onChange={setCode} hint={HINTS[kind]} inputRef={inputRef} />
      <button type="submit" disabled={isLoading} className={submitButtonClass}>
        Verify
      </button>
      {isLoading && <Spinner label="Checking the code" />}
      {shownError && <ErrorLine message={shownError} />}
      <button
        type="button"
        onClick={switchKind}
        className="self-start text-sm font-semibold text-cyan-300 underline underline-offset-4 hover:text-fuchsia-300"
      >
        {kind === 'totp' ? 'Use a recovery code instead' : 'Use your authenticator app instead'}
      </button>
    </form>
  );
}
