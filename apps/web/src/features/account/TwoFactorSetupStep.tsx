import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TotpCode, type RecoveryCodes, type TwoFactorSetup } from '@pixel-vault/shared';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { CodeField, selectCode } from './CodeField';
import { useEnableTwoFactorMutation } from './twoFactorApi';

/** The secret as apps that cannot scan ask for it, in groups of 4 to read and type. */
export function groupedSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/**
 * The `otpauth://` URI drawn as a QR code in the browser (never sent anywhere): an SVG data URL from
 * `qrcode`, loaded only here so that nothing of it is in the shop's first download.
 */
function useQrCode(text: string): { src: string | null; failed: boolean } {
  const [drawn, setDrawn] = useState<{ text: string; src: string | null }>({ text: '', src: null });
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then((svg) => ({ text, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` }))
      .catch(() => ({ text, src: null }))
      .then((result) => {
        if (live) setDrawn(result);
      });
    return () => {
      live = false;
    };
  }, [text]);
  return drawn.text === text ? { src: drawn.src, failed: drawn.src === null } : { src: null, failed: false };
}

/**
 * Turning two-factor sign-in on (issue 36): the QR code to scan, the secret as text for apps that
 * cannot, and the first code from the app, which enables it and answers the recovery codes.
 */
export function TwoFactorSetupStep({
  setup,
  onStatus,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onStatus: (message: string | null) => void;
  onEnabled: (answer: RecoveryCodes) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [enable, { isLoading, error, reset }] = useEnableTwoFactorMutation();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const qr = useQrCode(setup.otpauthUrl);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  async function copySecret() {
    const copied = await navigator.clipboard
      ?.writeText(setup.secret)
      .then(() => true)
      .catch(() => false);
    onStatus(copied ? 'Copied the key.' : 'Could not copy. Please select the key and copy it.');
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = TotpCode.safeParse(code);
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the code');
      codeRef.current?.focus();
      return;
    }
    setInvalid(null);
    onStatus(null);
    const answer = await enable({ code: parsed.data })
      .unwrap()
      .catch(() => null);
    if (answer) onEnabled(answer);
    else selectCode(codeRef.current);
  }

  const shownError = invalid ?? (error ? readableError(error) : null);

  return (
    <form
      aria-labelledby={titleId}
      aria-busy={isLoading}
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 border-2 border-zinc-700 p-4"
    >
      <h3 id={titleId} ref={headingRef} tabIndex={-1} className="font-semibold text-cyan-300">
        Set up your authenticator app
      </h3>
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm text-zinc-200">
        <li>
          Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator,
          1Password or Aegis).
          <div className="mt-2 flex h-48 w-48 items-center justify-center bg-white p-1">
            {qr.src ? (
              <img
                src={qr.src}
                width={184}
                height={184}
                alt="QR code to scan with your authenticator app. If you cannot scan it, enter the key below."
              />
            ) : qr.failed ? (
              <p className="p-2 text-center text-sm text-zinc-900">
                The QR code could not be drawn. Please enter the key below.
              </p>
            ) : (
              <span className="text-sm text-zinc-900">Drawing the QR code…</span>
            )}
          </div>
        </li>
        <li>
          Or enter this key in the app:
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <code className="border border-zinc-700 bg-zinc-950 px-2 py-1 font-mono text-base break-all text-zinc-100 select-all">
              {groupedSecret(setup.secret)}
            </code>
            <button type="button" className="btn btn-secondary" onClick={() => void copySecret()}>
              Copy key
            </button>
          </div>
        </li>
        <li>Enter the 6-digit code the app shows to finish.</li>
      </ol>
      <CodeField
        kind="totp"
        value={code}
        onChange={setCode}
        inputRef={codeRef}
        hint="The code changes every 30 seconds."
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={isLoading} className="btn btn-primary">
          Turn on
        </button>
        <button type="button" disabled={isLoading} className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {isLoading && <Spinner label="Checking the code" />}
      {shownError && <ErrorLine message={shownError} />}
    </form>
  );
}
