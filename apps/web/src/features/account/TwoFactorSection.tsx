import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  RECOVERY_CODE_COUNT,
  TwoFactorConfirmBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@pixel-vault/shared';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { CodeField } from './CodeField';
import { FormField } from './FormField';
import { FormStatus } from './FormStatus';
import { RecoveryCodesList } from './RecoveryCodesList';
import { TwoFactorSetupStep } from './TwoFactorSetupStep';
import {
  useDisableTwoFactorMutation,
  useGetTwoFactorStatusQuery,
  useNewRecoveryCodesMutation,
  useStartTwoFactorSetupMutation,
  TWO_FACTOR_SECTION_ID,
} from './twoFactorApi';

/** What the section shows below its status: nothing more, a step, or the codes shown once. */
type Step =
  | { name: 'status' }
  | { name: 'setup'; setup: TwoFactorSetup }
  | { name: 'codes'; codes: string[] }
  | { name: 'confirm'; action: 'disable' | 'newCodes' };

const codesLeftText = (left: number) =>
  left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`;

/**
 * "Two-factor sign-in" (issue 36), in My Account. Off: "Turn on" leads through the QR code and a first
 * code to the recovery codes, shown once. On: how many recovery codes are left, a new set, and turning it
 * off, each confirmed with the password and a code. An admin whom the shop requires it of is told so.
 */
export function TwoFactorSection() {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { data, error, isFetching, refetch } = useGetTwoFactorStatusQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [startSetup, setupState] = useStartTwoFactorSetupMutation();
  const [step, setStep] = useState<Step>({ name: 'status' });
  const [status, setStatus] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Sent here after logging in (an admin who must turn it on): the section in view, the keyboard at it.
  useEffect(() => {
    if (window.location.hash !== `#${TWO_FACTOR_SECTION_ID}`) return;
    headingRef.current?.scrollIntoView?.();
    headingRef.current?.focus();
  }, []);

  /** Back to the status, the keyboard at the section's heading (the step's controls are gone). */
  function finish(message: string | null) {
    setStep({ name: 'status' });
    setStatus(message);
    headingRef.current?.focus();
  }

  async function turnOn() {
    setFailure(null);
    setStatus(null);
    const setup = await startSetup()
      .unwrap()
      .catch((e: unknown) => {
        setFailure(readableError(e));
        return null;
      });
    if (setup) setStep({ name: 'setup', setup });
  }

  return (
    <section
      id={TWO_FACTOR_SECTION_ID}
      aria-labelledby={titleId}
      aria-busy={isFetching}
      className="flex scroll-mt-24 flex-col gap-4"
    >
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-lime-300">
        Two-factor sign-in
      </h2>
      {error && !data ? (
        <div className="flex flex-col items-start gap-2">
          <ErrorLine message={readableError(error)} />
          <button type="button" className="btn btn-secondary" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <Spinner label="Loading two-factor sign-in" />
      ) : (
        <>
          {data.required && !data.enabled && (
            <p className="border-2 border-amber-400 bg-zinc-950 p-3 font-semibold text-amber-200">
              Two-factor sign-in is required for admins. Turn it on here to use the Admin Dashboard.
            </p>
          )}
          <StatusLine status={data} />
          {step.name === 'setup' ? (
            <TwoFactorSetupStep
              setup={step.setup}
              onStatus={setStatus}
              onEnabled={({ recoveryCodes }) => {
                setStep({ name: 'codes', codes: recoveryCodes });
                setStatus(`Two-factor sign-in is on. Save your ${recoveryCodes.length} recovery codes now.`);
              }}
              onCancel={() => finish(null)}
            />
          ) : step.name === 'codes' ? (
            <RecoveryCodesList codes={step.codes} onStatus={setStatus} onDone={() => finish(null)} />
          ) : step.name === 'confirm' ? (
            <ConfirmForm
              action={step.action}
              onDone={(codes) => {
                if (!codes) return finish('Two-factor sign-in is off.');
                setStep({ name: 'codes', codes });
                setStatus('New recovery codes made. The old ones no longer work.');
              }}
              onCancel={() => finish(null)}
            />
          ) : data.enabled ? (
            <div className="flex flex-wrap gap-3">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => {
                  setStatus(null);
                  setStep({ name: 'confirm', action: 'newCodes' });
                }}
              >
                New recovery codes
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => {
                  setStatus(null);
                  setStep({ name: 'confirm', action: 'disable' });
                }}
              >
                Turn off
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="btn btn-primary self-start"
              disabled={setupState.isLoading}
              onClick={() => void turnOn()}
            >
              Turn on
            </button>
          )}
        </>
      )}
      {setupState.isLoading && <Spinner label="Preparing two-factor sign-in" />}
      <FormStatus message={status} />
      {failure && <ErrorLine message={failure} />}
    </section>
  );
}

function StatusLine({ status }: { status: TwoFactorStatus }) {
  if (!status.enabled)
    return (
      <p className="text-sm text-zinc-300">
        <strong className="text-zinc-100">Off.</strong> Add a code from an authenticator app on your phone to
        each sign-in, so that a stolen password alone cannot open your account.
      </p>
    );
  return (
    <p className="text-sm text-zinc-300">
      <strong className="text-lime-300">On.</strong> Each sign-in asks for a code from your authenticator app.{' '}
      {codesLeftText(status.recoveryCodesLeft)}
      {status.recoveryCodesLeft <= 2 && ' Make new ones before you run out.'}
    </p>
  );
}

const CONFIRM_TEXT = {
  disable: {
    title: 'Turn off two-factor sign-in',
    intro: 'Signing in will ask only for your password. Confirm with your password and a code.',
    submit: 'Turn off',
  },
  newCodes: {
    title: 'New recovery codes',
    intro: `A new set of ${RECOVERY_CODE_COUNT} codes replaces the old one. Confirm with your password and a code.`,
    submit: 'Make new codes',
  },
} as const;

/** Turning it off, or a new set of recovery codes: the password and a current code (or a recovery code). */
function ConfirmForm({
  action,
  onDone,
  onCancel,
}: {
  action: 'disable' | 'newCodes';
  /** The new recovery codes, or nothing when it was turned off. */
  onDone: (codes: string[] | null) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [disable, disableState] = useDisableTwoFactorMutation();
  const [newCodes, newCodesState] = useNewRecoveryCodesMutation();
  const state = action === 'disable' ? disableState : newCodesState;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const text = CONFIRM_TEXT[action];

  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input[name="password"]')?.focus();
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = TwoFactorConfirmBody.safeParse({ password, code });
    if (!parsed.success) {
      state.reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    if (action === 'disable') {
      const done = await disable(parsed.data)
        .unwrap()
        .then(() => true)
        .catch(() => false);
      if (done) onDone(null);
    } else {
      const answer = await newCodes(parsed.data)
        .unwrap()
        .catch(() => null);
      if (answer) onDone(answer.recoveryCodes);
    }
  }

  const shownError = invalid ?? (state.error ? readableError(state.error) : null);

  return (
    <form
      ref={formRef}
      aria-labelledby={titleId}
      aria-busy={state.isLoading}
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 border-2 border-zinc-700 p-4"
    >
      <h3 id={titleId} className="font-semibold text-cyan-300">
        {text.title}
      </h3>
      <p className="text-sm text-zinc-300">{text.intro}</p>
      <FormField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <CodeField
        kind="any"
        value={code}
        onChange={setCode}
        hint="The code your authenticator app shows now, or one of your recovery codes."
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={state.isLoading} className="btn btn-primary">
          {text.submit}
        </button>
        <button type="button" disabled={state.isLoading} className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {state.isLoading && <Spinner label="Checking" />}
      {shownError && <ErrorLine message={shownError} />}
    </form>
  );
}
