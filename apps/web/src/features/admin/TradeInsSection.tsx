import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  Id,
  TRADE_IN_STATUSES,
  formatDollars,
  formatOrderDate,
  type TradeInStatus,
} from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { Pager } from '../../ui/Pager';
import { Spinner } from '../../ui/Spinner';
import { TRADE_IN_PARAM } from './dashboardLinks';
import { useGetAdminTradeInsQuery } from './tradeinsApi';
import { TradeInsSectionDetail } from './TradeInsSectionDetail';
import { ADMIN_TRADE_IN_STATUS_LABELS, itemsCount } from './TradeInsSectionParts';

/** The queue's filter: the shop's to-do (received boxes first, then shipped ones), one status, or all. */
type Filter = 'todo' | 'all' | TradeInStatus;

const QUEUE_PAGE_SIZE = 25;

function openButtonId(tradeInId: string) {
  return `open-tradein-${tradeInId}`;
}

/** One status's trade-ins (or every one), paged, each opened with a button. */
function Queue({
  status,
  q,
  title,
  empty,
  onOpen,
}: {
  status: TradeInStatus | undefined;
  /** A packing slip's reference, or part of a customer's name or e-mail. */
  q?: string;
  /** A heading over the list (the to-do's two lists); none for a single list. */
  title?: string;
  empty: string;
  onOpen: (id: string) => void;
}) {
  const [page, setPage] = useState(1);
  const headingId = useId();
  const {
    currentData: data,
    error,
    isFetching,
  } = useGetAdminTradeInsQuery({
    ...(status ? { status } : {}),
    ...(q ? { q } : {}),
    page,
    limit: QUEUE_PAGE_SIZE,
  });

  let body;
  if (!data && !error) body = <Spinner label="Loading trade-ins" />;
  else if (error) body = <ErrorLine prefix="Error loading trade-ins: " message={errorMessage(error)} />;
  else if (!data || data.tradeIns.length === 0) body = <p className="text-zinc-300">{empty}</p>;
  else
    body = (
      <>
        <ul aria-label={title ?? 'Trade-ins'} aria-busy={isFetching} className="grid gap-3 xl:grid-cols-2">
          {data.tradeIns.map((tradeIn) => {
            const short = tradeIn._id.slice(0, 8).toUpperCase();
            return (
              <li key={tradeIn._id} className="flex flex-col gap-1 border-2 border-zinc-700 bg-zinc-950 p-3">
                <p className="font-semibold break-words text-zinc-50">
                  {tradeIn.user ? tradeIn.user.name : 'A customer'}
                  {tradeIn.user && (
                    <span className="ml-2 text-sm font-normal break-all text-zinc-400">
                      {tradeIn.user.email}
                    </span>
                  )}
                </p>
                <p className="text-sm text-zinc-300">
                  Trade-in <span className="font-mono font-semibold text-zinc-100">{short}</span>
                </p>
                <p className="text-sm text-zinc-200">
                  {ADMIN_TRADE_IN_STATUS_LABELS[tradeIn.status]} · {itemsCount(tradeIn.items)}{' '}
                  {itemsCount(tradeIn.items) === 1 ? 'item' : 'items'} · quoted{' '}
                  {formatDollars(tradeIn.totalCredit)}
                  {tradeIn.inspectedCredit != null &&
                    ` · inspected ${formatDollars(tradeIn.inspectedCredit)}`}
                </p>
                <p className="text-sm text-zinc-400">
                  Quoted {formatOrderDate(tradeIn.createdAt)} · updated {formatOrderDate(tradeIn.updatedAt)}
                </p>
                <button
                  id={openButtonId(tradeIn._id)}
                  type="button"
                  className="btn btn-secondary mt-2 self-start"
                  onClick={() => onOpen(tradeIn._id)}
                  aria-label={`Open trade-in ${short} of ${tradeIn.user?.name ?? 'a customer'}`}
                >
                  Open
                </button>
              </li>
            );
          })}
        </ul>
        <Pager
          page={page}
          shownPage={data.page}
          totalPage={data.pages}
          label={`${title ?? 'Trade-in'} pages`}
          busy={isFetching}
          onPage={setPage}
        />
      </>
    );

  if (!title) return <div className="flex flex-col gap-3">{body}</div>;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-base font-semibold text-zinc-50">
        {title}
        {data && <span className="ml-2 text-sm font-normal text-zinc-400">({data.total})</span>}
      </h3>
      {body}
    </section>
  );
}

/**
 * Finds a box on the packing table: the reference printed on its slip (or the full number under it),
 * or the customer's name or e-mail. A full number opens the trade-in at once.
 */
function FindTradeIn({ onOpen, onSearch }: { onOpen: (id: string) => void; onSearch: (q: string) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const hintId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = text.trim();
    const full = Id.safeParse(typed.toLowerCase());
    if (full.success) onOpen(full.data);
    else onSearch(typed);
  }

  return (
    <form onSubmit={onSubmit} role="search" aria-label="Search trade-ins" className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">
        Find a trade-in
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="search"
          aria-describedby={hintId}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value.trim() === '') onSearch('');
          }}
          className="field min-w-0 flex-1 font-mono"
        />
        <button type="submit" className="btn btn-secondary">
          Find
        </button>
      </div>
      <p id={hintId} className="text-xs text-zinc-400">
        The reference on the packing slip (e.g. B657F268), or the customer’s name or e-mail.
      </p>
    </form>
  );
}

/**
 * Trade-ins (issue 35): the shop's queue, by default what waits on the shop (received boxes to inspect,
 * then shipped ones to receive), or one status, or all; a trade-in opened by its number from a packing
 * slip. The open one is the URL's `?tradein=`, so the back button returns to the queue.
 */
export function TradeInsSection() {
  const [params, setParams] = useSearchParams();
  const openId = params.get(TRADE_IN_PARAM);
  const [filter, setFilter] = useState<Filter>('todo');
  const [search, setSearch] = useState('');
  const lastOpened = useRef<string | null>(null);

  // Back in the queue: the focus returns to the trade-in's button, where the admin was.
  useEffect(() => {
    if (openId || !lastOpened.current) return;
    document.getElementById(openButtonId(lastOpened.current))?.focus();
  }, [openId]);

  function open(id: string) {
    lastOpened.current = id;
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(TRADE_IN_PARAM, id);
      return next;
    });
  }

  function back() {
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(TRADE_IN_PARAM);
      return next;
    });
  }

  if (openId) return <TradeInsSectionDetail key={openId} id={openId} onBack={back} />;

  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-4 md:grid-cols-2 md:items-start">
        <LabelledField label="Show">
          {({ id }) => (
            <select
              id={id}
              className="field w-full"
              value={filter}
              onChange={(event) => setFilter(event.target.value as Filter)}
            >
              <option value="todo">To do: received, then shipped</option>
              {TRADE_IN_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {ADMIN_TRADE_IN_STATUS_LABELS[status]}
                </option>
              ))}
              <option value="all">All trade-ins</option>
            </select>
          )}
        </LabelledField>
        <FindTradeIn onOpen={open} onSearch={setSearch} />
      </div>
      {search ? (
        <Queue
          key={`${filter}:${search}`}
          status={filter === 'all' || filter === 'todo' ? undefined : filter}
          q={search}
          title={`Found for “${search}”`}
          empty="No trade-in matches. Check the reference on the slip, or try the customer’s e-mail."
          onOpen={open}
        />
      ) : filter === 'todo' ? (
        <>
          <Queue status="received" title="Received: to inspect" empty="No boxes to inspect." onOpen={open} />
          <Queue status="shipped" title="Shipped: to receive" empty="No boxes on their way." onOpen={open} />
        </>
      ) : (
        <Queue
          key={filter}
          status={filter === 'all' ? undefined : filter}
          empty="No trade-ins found"
          onOpen={open}
        />
      )}
    </div>
  );
}
