import { useEffect, useState, type FormEvent } from 'react';
import { AddBalanceBody, CreateGiftCardBody, formatDollars, type GiftCard } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import {
  useAddGiftCardBalanceMutation,
  useCreateGiftCardMutation,
  useDeleteGiftCardMutation,
  useGetGiftCardsQuery,
} from './api';
import { Field } from './fields';
import { validateAndSend } from './submit';

export const GIFT_CARD_SUCCESS = 'Action completed successfully!';
export const CONFIRM_DELETE_GIFT_CARD = 'Are you sure you want to delete this gift card?';
const SUCCESS_MS = 3000;

type Outcome = { kind: 'success' } | { kind: 'error'; message: string } | null;

/** Shared first-issue message of a zod check, as the server would answer it. */

function GiftCardItem({ card, onOutcome }: { card: GiftCard; onOutcome: (outcome: Outcome) => void }) {
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [addBalance, { isLoading: adding }] = useAddGiftCardBalanceMutation();
  const [deleteCard, { isLoading: deleting }] = useDeleteGiftCardMutation();

  async function onAddBalance(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const [problem] = await validateAndSend(
      AddBalanceBody,
      { amount: amount.trim() === '' ? Number.NaN : Number(amount) },
      (body) => addBalance({ id: card._id, body }).unwrap(),
    );
    if (problem) return onOutcome({ kind: 'error', message: problem });
    setAmount('');
    onOutcome({ kind: 'success' });
  }

  async function onDelete() {
    try {
      await deleteCard(card._id).unwrap();
      setConfirming(false);
      onOutcome({ kind: 'success' });
    } catch (error) {
      setConfirming(false);
      onOutcome({ kind: 'error', message: errorMessage(error) });
    }
  }

  return (
    <li className="flex flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4">
      <p className="font-mono text-lg break-all text-lime-300">{card.code}</p>
      <p>
        <span className="text-zinc-400">Balance: </span>
        {formatDollars(card.balance)}
      </p>
      <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={(e) => void onAddBalance(e)}>
        <Field
          label={`Amount to add to ${card.code}`}
          type="number"
          step="0.01"
          min="0.01"
          value={amount}
          onChange={setAmount}
        />
        <button type="submit" className="btn btn-primary" disabled={adding}>
          Add Balance
        </button>
      </form>
      <button type="button" className="btn btn-secondary self-start" onClick={() => setConfirming(true)}>
        Delete Gift Card
      </button>
      {confirming && (
        <ConfirmDialog
          message={CONFIRM_DELETE_GIFT_CARD}
          busy={deleting}
          onConfirm={() => void onDelete()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/** Manage Gift Cards (spec sections 2, 5 and 6): create, add balance, delete; the list reloads after each. */
export function ManageGiftCardsSection() {
  const { data: cards, error, isLoading } = useGetGiftCardsQuery();
  const [createCard, { isLoading: creating }] = useCreateGiftCardMutation();
  const [code, setCode] = useState('');
  const [balance, setBalance] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);

  useEffect(() => {
    if (outcome?.kind !== 'success') return;
    const timer = setTimeout(() => setOutcome(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const [problem] = await validateAndSend(
      CreateGiftCardBody,
      { code, balance: balance.trim() === '' ? Number.NaN : Number(balance) },
      (body) => createCard(body).unwrap(),
    );
    if (problem) return setOutcome({ kind: 'error', message: problem });
    setCode('');
    setBalance('');
    setOutcome({ kind: 'success' });
  }

  return (
    <div className="flex flex-col gap-6">
      <form
        aria-label="Create gift card"
        noValidate
        onSubmit={(e) => void onCreate(e)}
        className="grid items-end gap-4 sm:grid-cols-[1fr_1fr_auto]"
      >
        <Field label="Code" value={code} onChange={setCode} autoComplete="off" required />
        <Field
          label="Initial Balance"
          type="number"
          step="0.01"
          min="0"
          value={balance}
          onChange={setBalance}
          required
        />
        <button type="submit" className="btn btn-primary" disabled={creating}>
          Create Gift Card
        </button>
      </form>
      <div aria-live="polite">
        {outcome?.kind === 'success' && <p className="text-lime-300">{GIFT_CARD_SUCCESS}</p>}
        {outcome?.kind === 'error' && <ErrorLine message={outcome.message} />}
      </div>
      {isLoading ? (
        <Spinner label="Loading gift cards" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !cards || cards.length === 0 ? (
        <p className="text-zinc-300">No gift cards available</p>
      ) : (
        <ul aria-label="Gift cards" className="grid gap-4 lg:grid-cols-2">
          {cards.map((card) => (
            <GiftCardItem key={card._id} card={card} onOutcome={setOutcome} />
          ))}
        </ul>
      )}
    </div>
  );
}
