import { useEffect, useId, useRef } from 'react';
import { saveFile } from '../../ui/saveFile';

export const RECOVERY_CODES_FILENAME = 'pixel-vault-recovery-codes.txt';

/** The text copied or downloaded: what the codes are for, then one code a line. */
export function recoveryCodesText(codes: readonly string[]): string {
  return [
    'Pixel Vault recovery codes',
    'Each code signs you in once if you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Saves the codes as a .txt file (ui/saveFile.ts). */
function downloadCodes(codes: readonly string[]) {
  const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain' }));
  saveFile({ url, filename: RECOVERY_CODES_FILENAME });
}

/**
 * The recovery codes, shown once (issue 36: stored only hashed): a list to copy or download as a
 * .txt file, then "I have saved them". The heading takes the keyboard when they appear.
 */
export function RecoveryCodesList({
  codes,
  onStatus,
  onDone,
}: {
  codes: readonly string[];
  onStatus: (message: string) => void;
  onDone: () => void;
}) {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  async function copy() {
    const copied = await navigator.clipboard
      ?.writeText(recoveryCodesText(codes))
      .then(() => true)
      .catch(() => false);
    onStatus(
      copied
        ? 'Copied the recovery codes.'
        : 'Could not copy. Please select the codes, or download them instead.',
    );
  }

  return (
    <div className="flex flex-col gap-4 border-2 border-amber-400 p-4" role="group" aria-labelledby={titleId}>
      <h3 id={titleId} ref={headingRef} tabIndex={-1} className="font-semibold text-amber-200">
        Your recovery codes
      </h3>
      <p className="text-sm text-zinc-200">
        Keep these somewhere safe, away from your phone. Each one signs you in once if you lose your
        authenticator app. They are shown only now.
      </p>
      <ol
        aria-labelledby={titleId}
        className="grid grid-cols-1 gap-2 font-mono text-base text-zinc-100 min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="border border-zinc-700 bg-zinc-950 px-2 py-1 text-center select-all">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
          Copy codes
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            downloadCodes(codes);
            onStatus(`Downloaded ${RECOVERY_CODES_FILENAME}.`);
          }}
        >
          Download codes
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
