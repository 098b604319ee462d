import { TRADE_IN_EVENT_KINDS, type TradeInStatus } from '@pixel-vault/shared';
import type { Executor } from '../../db/client.js';
import { type TradeInActor, type TradeInEventRowKind, tradeInEvents } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';

/**
 * A trade-in's life (issue 35, docs/trade-ins.md), in one place: the moves between statuses, who makes
 * them, and the timeline that records them. Every route and the expiry sweep go through checkMove.
 */

export type TradeInMove = 'ship' | 'cancel' | 'receive' | 'inspect' | 'accept' | 'decline' | 'expire';

/** Who may ask for each move: the customer (their own trade-in), an admin, or the expiry sweep. */
export const MOVE_ACTORS: Record<TradeInMove, TradeInActor> = {
  ship: 'customer',
  cancel: 'customer',
  receive: 'admin',
  inspect: 'admin',
  accept: 'customer',
  decline: 'customer',
  expire: 'system',
};

/**
 * The transition table. `from`: the statuses the move may start from; `to`: where it leads. `done`:
 * where it has already happened (the status it led to, or one only reachable through it), so
 * repeating it changes nothing and answers the trade-in as it is. Anything else is a 409.
 * (`inspect` leads to `inspected`, and on to `accepted` in the same transaction when every line was
 * accepted at its quote: tradeins.moves.ts.)
 */
export const TRANSITIONS: Record<
  TradeInMove,
  { from: readonly TradeInStatus[]; to: TradeInStatus; done: readonly TradeInStatus[] }
> = {
  ship: {
    from: ['quoted'],
    to: 'shipped',
    done: ['shipped', 'received', 'inspected', 'accepted', 'returned'],
  },
  cancel: { from: ['quoted', 'shipped'], to: 'cancelled', done: ['cancelled'] },
  receive: { from: ['shipped'], to: 'received', done: ['received', 'inspected', 'accepted', 'returned'] },
  inspect: { from: ['received'], to: 'inspected', done: ['inspected', 'accepted', 'returned'] },
  accept: { from: ['inspected'], to: 'accepted', done: ['accepted'] },
  decline: { from: ['inspected'], to: 'returned', done: ['returned'] },
  expire: { from: ['quoted'], to: 'expired', done: ['expired'] },
};

export const tradeInExpired = () =>
  new AppError(
    409,
    'This quote has expired: it was not shipped in time. Please ask for a new quote.',
    'TRADE_IN_EXPIRED',
  );

export const tradeInNotFound = () => new AppError(404, 'Trade-in not found', 'NOT_FOUND');

const DOING: Record<TradeInMove, string> = {
  ship: 'marked as shipped',
  cancel: 'cancelled',
  receive: 'marked as received',
  inspect: 'inspected',
  accept: 'accepted',
  decline: 'declined',
  expire: 'expired',
};

/** Why `move` cannot happen to a trade-in in `status`, written for the customer or the admin. */
function refusal(move: TradeInMove, status: TradeInStatus): AppError {
  if (status === 'expired') return tradeInExpired();
  if (status === 'cancelled') {
    return new AppError(409, 'This trade-in was cancelled.', 'TRADE_IN_CANCELLED');
  }
  if (move === 'cancel') {
    return new AppError(
      409,
      status === 'received' || status === 'inspected'
        ? 'We have received this trade-in, so it can no longer be cancelled. Decline the inspected offer to get your items back.'
        : 'This trade-in is closed and can no longer be cancelled.',
      'TRADE_IN_NOT_CANCELLABLE',
    );
  }
  const needs: Partial<Record<TradeInMove, string>> = {
    ship: 'a quoted trade-in',
    receive: 'a shipped trade-in',
    inspect: 'a received trade-in',
    accept: 'an inspected trade-in',
    decline: 'an inspected trade-in',
    expire: 'a quoted trade-in',
  };
  return new AppError(
    409,
    `This trade-in is ${status}: only ${needs[move] ?? 'another trade-in'} can be ${DOING[move]}.`,
    'TRADE_IN_STATE',
  );
}

/**
 * 'proceed' when `move` may happen to a trade-in in `status` now, 'done' when it already has (answer
 * the trade-in as it is); throws the 409 otherwise.
 */
export function checkMove(move: TradeInMove, status: TradeInStatus): 'proceed' | 'done' {
  const rule = TRANSITIONS[move];
  if (rule.done.includes(status)) return 'done';
  if (rule.from.includes(status)) return 'proceed';
  throw refusal(move, status);
}

export interface NewTradeInEvent {
  tradeInId: string;
  kind: TradeInEventRowKind;
  actor: TradeInActor;
  actorUserId?: string | null;
  amountCents?: number | null;
  note?: string | null;
  at: Date;
}

/** One line of the timeline, in the caller's transaction (the one that made the change). */
export async function recordEvent(tx: Executor, event: NewTradeInEvent): Promise<void> {
  await tx.insert(tradeInEvents).values({
    tradeInId: event.tradeInId,
    kind: event.kind,
    actor: event.actor,
    actorUserId: event.actorUserId ?? null,
    amountCents: event.amountCents ?? null,
    note: event.note ?? null,
    at: event.at,
  });
}

/** The order steps happen in: the timeline's order for events written at the same instant. */
export const EVENT_ORDER: readonly TradeInEventRowKind[] = TRADE_IN_EVENT_KINDS;
