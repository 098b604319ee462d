import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { DiscountCode, type CheckDiscountResponse, type Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';
import { removeDiscountCode, saveDiscountCode, type CartItem } from '../../app/cartSlice';
import { ordersApi } from '../../app/ordersApi';
import { ErrorLine } from '../../ui/ErrorLine';
import { orderLines } from './orderLines';

/**
 * The discount code of checkout (issue 32, decision 009). Apply asks the server whether the code
 * applies to this cart (`POST /api/promotions/check`) and shows its refusal as it is ("Spend $25.00 on
 * puzzles to use this code"); an accepted code is kept with the cart (so a reload keeps it, and Sign
 * Out forgets it) and sent with the order. Once the order exists, applying or removing a code places
 * it again (`placeWithCode`) so the order to pay is priced with it. The totals are the summary's.
 */
export function DiscountCodeBox({
  items,
  applied,
  checked,
  recheckError,
  placeWithCode,
  locked = false,
}: {
  items: readonly CartItem[];
  /** The code kept with the cart, if any. */
  applied: string | null;
  /** The server's check of the applied code for the cart as it is now, once answered. */
  checked: CheckDiscountResponse | undefined;
  /** The server's refusal of the applied code for the cart as it is now (the cart changed since). */
  recheckError: string | null;
  placeWithCode: (code: string | null) => Promise<Order | null>;
  /** The order is paid already (a gift card covered it): its code can no longer change. */
  locked?: boolean;
}) {
  const id = useId();
  const dispatch = useAppDispatch();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<'apply' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** What Apply answered, until the summary's check of the same code arrives. */
  const [accepted, setAccepted] = useState<CheckDiscountResponse | null>(null);
  const [removedNote, setRemovedNote] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  /** Where the keyboard goes once the field or the applied code replaces the other. */
  const focusNext = useRef<'input' | 'remove' | null>(null);

  useEffect(() => {
    if (focusNext.current === 'remove' && applied) removeRef.current?.focus();
    if (focusNext.current === 'input' && !applied) inputRef.current?.focus();
    focusNext.current = null;
  }, [applied]);

  const verdict = checked ?? (accepted?.code === applied ? accepted : null);
  const shownError = error ?? (applied ? recheckError : null);
  const status =
    applied && verdict && !recheckError
      ? `${applied} applied: ${verdict.description}`
      : !applied && removedNote
        ? removedNote
        : '';

  async function onApply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || locked) return;
    const parsed = DiscountCode.safeParse(typed);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a discount code.');
      return;
    }
    setBusy('apply');
    setError(null);
    setRemovedNote(null);
    try {
      const result = await dispatch(
        ordersApi.endpoints.checkDiscount.initiate(
          { code: parsed.data, orderItems: orderLines(items) },
          { subscribe: false, forceRefetch: true },
        ),
      ).unwrap();
      // The order already placed is placed again with the code; if the server refuses it there
      // (used up meanwhile), the code is not applied and the order stays as it was.
      await placeWithCode(result.code);
      setAccepted(result);
      focusNext.current = 'remove';
      dispatch(saveDiscountCode(result.code));
      setTyped('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  async function onRemove() {
    if (busy || locked || !applied) return;
    setBusy('remove');
    setError(null);
    focusNext.current = 'input';
    dispatch(removeDiscountCode());
    setRemovedNote(`${applied} removed.`);
    try {
      await placeWithCode(null);
    } catch (e) {
      // The code is off the cart; the next payment step places the order without it.
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  const errorId = `${id}-error`;
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 border-4 border-zinc-800 p-4">
      <h2 id={`${id}-title`} className="pixel-heading text-xs text-fuchsia-300">
        Discount Code
      </h2>
      {applied ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="min-w-0 text-zinc-100">
            <span className="sr-only">Applied code: </span>
            <span className="font-mono font-semibold break-all text-lime-300">{applied}</span>
          </p>
          <button
            ref={removeRef}
            type="button"
            className="btn btn-secondary"
            onClick={() => void onRemove()}
            disabled={busy != null || locked}
            aria-busy={busy === 'remove'}
            aria-label={`Remove discount code ${applied}`}
          >
            {busy === 'remove' ? 'Removing…' : 'Remove'}
          </button>
        </div>
      ) : (
        <form onSubmit={(e) => void onApply(e)} className="flex flex-col gap-2" noValidate>
          <label htmlFor={`${id}-code`} className="text-sm font-semibold text-zinc-300">
            Discount code
          </label>
          <div className="flex flex-col gap-2 sm:flex-row md:flex-col lg:flex-row">
            <input
              ref={inputRef}
              id={`${id}-code`}
              name="discountCode"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                setError(null);
              }}
              aria-invalid={shownError ? true : undefined}
              aria-describedby={shownError ? errorId : undefined}
              className="field min-w-0 flex-1 uppercase"
            />
            <button
              type="submit"
              className="btn btn-secondary"
              disabled={busy != null || locked || typed.trim() === ''}
              aria-busy={busy === 'apply'}
            >
              {busy === 'apply' ? 'Applying…' : 'Apply'}
            </button>
          </div>
        </form>
      )}
      {shownError && (
        <div id={errorId}>
          <ErrorLine prefix="" message={shownError} />
        </div>
      )}
      <p role="status" className="text-sm text-zinc-300">
        {status}
      </p>
    </section>
  );
}
