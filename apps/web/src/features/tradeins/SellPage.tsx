import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  DEFAULT_TRADE_IN_QUOTE_DAYS,
  MAX_TRADE_IN_ITEMS,
  formatCents,
  nameWithVariant,
  toCents,
  type BuylistEntry,
} from '@pixel-vault/shared';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Pager } from '../../ui/Pager';
import { Price } from '../../ui/Price';
import { Spinner } from '../../ui/Spinner';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { failedStatus, readableError } from '../../app/readableError';
import { BUYLIST_PAGE_SIZE, useCreateTradeInMutation, useGetBuylistQuery } from './api';
import {
  itemCount,
  listCreditCents,
  quoteBody,
  sellListProblem,
  useSellList,
  type SellLine,
} from './sellList';
import { optionsText } from './tradeInWords';

export const SELL_PATH = '/sell';
/** The list's section, where the phone's jump link goes. */
const LIST_SECTION_ID = 'your-list';

/** "Super Mario 64 (Loose / NTSC-U)": a buy-list row as people read it. */
export function entryLabel(entry: Pick<BuylistEntry, 'productName' | 'options'>): string {
  return nameWithVariant(entry.productName, optionsText(entry.options));
}

function HowItWorks({ quoteDays }: { quoteDays: number }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="border-4 border-zinc-800 p-4 sm:p-5">
      <h2 id={headingId} className="pixel-heading mb-3 text-sm text-cyan-300">
        How it works
      </h2>
      <ol className="flex list-decimal flex-col gap-2 pl-6 text-zinc-300">
        <li>
          Find your games below and add them to your list. Get a quote: it holds for {quoteDays}{' '}
          {quoteDays === 1 ? 'day' : 'days'}.
        </li>
        <li>Pack the games with the printed packing slip, send the box and mark the trade-in as shipped.</li>
        <li>
          We inspect every item. If one is not in the condition quoted, we say why and what we can pay; you
          accept or get your items back.
        </li>
        <li>
          You get the credit as store credit: a code you spend at checkout, like a gift card, on anything in
          the shop.
        </li>
      </ol>
    </section>
  );
}

function BuylistRow({ entry, inList, onAdd }: { entry: BuylistEntry; inList: number; onAdd: () => void }) {
  const label = entryLabel(entry);
  const title = optionsText(entry.options);
  return (
    <li className="grid grid-cols-[3rem_minmax(0,1fr)_auto] items-center gap-3 border-2 border-zinc-800 p-3">
      {entry.image ? (
        <img src={entry.image} alt="" width={48} height={48} className="h-12 w-12 object-contain" />
      ) : (
        <span aria-hidden="true" className="no-image h-12 w-12" />
      )}
      <div className="min-w-0">
        <p className="font-semibold break-words text-zinc-100">{entry.productName}</p>
        {(title || entry.platform) && (
          <p className="text-sm break-words text-zinc-400">
            {[entry.platform, title].filter(Boolean).join(' · ')}
          </p>
        )}
        <p className="text-sm text-zinc-200">
          <Price value={entry.credit} className="font-semibold text-lime-300" /> store credit each
          {inList > 0 && <span className="text-zinc-400"> · {inList} in your list</span>}
        </p>
      </div>
      <button
        type="button"
        className="btn btn-secondary px-3 sm:px-5"
        aria-label={`Add ${label} to your list`}
        onClick={onAdd}
      >
        Add
      </button>
    </li>
  );
}

/** A line's quantity: typed freely, kept when it is a whole number from 1 to the most a trade-in holds. */
function QtyInput({ line, label, onQty }: { line: SellLine; label: string; onQty: (qty: number) => void }) {
  const [text, setText] = useState(String(line.qty));
  const [shown, setShown] = useState(line.qty);
  if (shown !== line.qty) {
    setShown(line.qty);
    setText(String(line.qty));
  }
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-zinc-300">
        Qty<span className="sr-only"> of {label}</span>
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_TRADE_IN_ITEMS}
        step={1}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const qty = Number(event.target.value);
          if (Number.isInteger(qty) && qty >= 1 && qty <= MAX_TRADE_IN_ITEMS) onQty(qty);
        }}
        onBlur={() => setText(String(line.qty))}
        className="field w-20 bg-zinc-950"
      />
    </div>
  );
}

/**
 * /sell, "Sell us your games" (issue 35): the buy list searched and paged, a list built with quantities
 * (kept in the tab's sessionStorage: a reload or the login round-trip loses nothing), the credit it would
 * get, and "Get a quote": a visitor logs in first and comes back; a shopper gets the server's quote and
 * goes to the trade-in's page.
 */
export default function SellPage() {
  useDocumentTitle('Sell us your games');
  const navigate = useNavigate();
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const { lines, add, setQty, remove, clear } = useSellList();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text);
  const [page, setPage] = useState(1);
  const { currentData: data, error, isFetching } = useGetBuylistQuery({ q, page, limit: BUYLIST_PAGE_SIZE });
  // The shop's setting (TRADEIN_QUOTE_DAYS) once the buy list has answered; the default before.
  const quoteDays = data?.quoteDays ?? DEFAULT_TRADE_IN_QUOTE_DAYS;
  const [createTradeIn, creating] = useCreateTradeInMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const searchId = useId();
  const buylistHeadingId = useId();
  const listHeadingId = useId();
  const hintId = useId();

  const pending = text !== q || (!data && !error);
  const totalCents = listCreditCents(lines);
  const count = itemCount(lines);

  /** "2 items, $65.00 in credit": what the list holds after a change, said with it. */
  function listText(items: number, cents: number) {
    return `${items} ${items === 1 ? 'item' : 'items'}, ${formatCents(cents)} in credit`;
  }

  function onAdd(entry: BuylistEntry) {
    const full = itemCount(lines) >= MAX_TRADE_IN_ITEMS;
    add(entry);
    setProblem(null);
    setAnnouncement(
      full
        ? `Your list is full: a trade-in holds at most ${MAX_TRADE_IN_ITEMS} items`
        : `Added ${entryLabel(entry)} to your list: ${listText(count + 1, totalCents + toCents(entry.credit))}`,
    );
  }

  async function onQuote() {
    const invalid = sellListProblem(lines);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setProblem(null);
    if (!loggedIn) {
      // The list is in sessionStorage: it is here again after the login.
      void navigate(`/login?redirect=${encodeURIComponent(SELL_PATH)}`);
      return;
    }
    try {
      const tradeIn = await createTradeIn(quoteBody(lines)).unwrap();
      clear();
      void navigate(`/tradeins/${tradeIn._id}`, { state: { quoted: true } });
    } catch {
      // Shown from the mutation's error below.
    }
  }

  const quoteError = creating.error ? readableError(creating.error) : null;
  const tooMany = failedStatus(creating.error) === 409;

  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <div className="flex flex-col gap-3">
        <h1 className="pixel-heading text-xl text-lime-300 sm:text-2xl">Sell us your games</h1>
        <p className="max-w-3xl text-zinc-300">
          Your old games are worth store credit. Tell us what you have, get a quote, send the box: once we
          have checked it, the credit is yours to spend in the shop.
        </p>
      </div>
      <HowItWorks quoteDays={quoteDays} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
        <section aria-labelledby={buylistHeadingId} className="flex min-w-0 flex-col gap-4">
          <h2 id={buylistHeadingId} className="pixel-heading text-base text-cyan-300">
            What we buy
          </h2>
          <div className="flex flex-col gap-1">
            <label htmlFor={searchId} className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">
              Search the buy list
            </label>
            <input
              id={searchId}
              type="search"
              className="field w-full bg-zinc-950"
              placeholder="Game, console or platform"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setPage(1);
              }}
            />
          </div>
          {lines.length > 0 && (
            // On a phone the list is under the buy list: a way there without scrolling past it.
            <a
              href={`#${LIST_SECTION_ID}`}
              className="self-start font-semibold text-lime-300 underline underline-offset-4 lg:hidden"
            >
              Your list: {count} {count === 1 ? 'item' : 'items'}, {formatCents(totalCents)}
            </a>
          )}
          {pending ? (
            <Spinner label="Loading the buy list" />
          ) : error ? (
            <ErrorLine message={readableError(error)} />
          ) : !data || data.items.length === 0 ? (
            <p className="text-zinc-300">
              {q.trim()
                ? `Nothing on the buy list matches “${q.trim()}”.`
                : 'We are not buying anything right now.'}
            </p>
          ) : (
            <>
              <p className="text-sm text-zinc-400">
                {data.total} {data.total === 1 ? 'item' : 'items'} we buy
              </p>
              <ul aria-label="Buy list" aria-busy={isFetching} className="flex flex-col gap-3">
                {data.items.map((entry) => (
                  <BuylistRow
                    key={entry.variant}
                    entry={entry}
                    inList={lines.find((line) => line.entry.variant === entry.variant)?.qty ?? 0}
                    onAdd={() => onAdd(entry)}
                  />
                ))}
              </ul>
              <Pager
                page={page}
                shownPage={data.page}
                totalPage={data.pages}
                label="Buy list pages"
                busy={isFetching}
                onPage={setPage}
              />
            </>
          )}
        </section>

        <section
          id={LIST_SECTION_ID}
          tabIndex={-1}
          aria-labelledby={listHeadingId}
          className="flex scroll-mt-24 flex-col gap-4 border-4 border-lime-400 p-4 outline-none sm:p-5 lg:sticky lg:top-24"
        >
          <h2 id={listHeadingId} className="pixel-heading text-base text-lime-300">
            Your list
          </h2>
          {lines.length === 0 ? (
            <p className="text-zinc-300">Nothing yet: add the games you want to sell.</p>
          ) : (
            <ul aria-label="Your list" className="flex flex-col gap-3">
              {lines.map((line) => {
                const label = entryLabel(line.entry);
                return (
                  <li key={line.entry.variant} className="flex flex-col gap-2 border-b border-zinc-800 pb-3">
                    <div className="min-w-0">
                      <p className="font-semibold break-words text-zinc-100">{line.entry.productName}</p>
                      {optionsText(line.entry.options) && (
                        <p className="text-sm break-words text-zinc-400">{optionsText(line.entry.options)}</p>
                      )}
                    </div>
                    <div className="flex flex-wrap items-center justify-between gap-3">
                      <QtyInput line={line} label={label} onQty={(qty) => setQty(line.entry.variant, qty)} />
                      <span className="font-semibold text-lime-300 tabular-nums">
                        {formatCents(toCents(line.entry.credit) * line.qty)}
                      </span>
                      <button
                        type="button"
                        className="text-sm font-semibold text-cyan-300 underline underline-offset-4 hover:text-cyan-200"
                        aria-label={`Remove ${label} from your list`}
                        onClick={() => {
                          remove(line.entry.variant);
                          setAnnouncement(
                            `Removed ${label} from your list: ${listText(
                              count - line.qty,
                              totalCents - toCents(line.entry.credit) * line.qty,
                            )}`,
                          );
                        }}
                      >
                        Remove
                      </button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <p className="flex items-baseline justify-between gap-4 text-lg">
            <span className="text-zinc-200">
              Credit for {count} {count === 1 ? 'item' : 'items'}
            </span>
            <span className="font-semibold text-lime-300 tabular-nums">{formatCents(totalCents)}</span>
          </p>
          <p className="text-xs text-zinc-400">
            At today’s buy list; the quote fixes it for {quoteDays} {quoteDays === 1 ? 'day' : 'days'}.
          </p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={creating.isLoading}
            aria-describedby={loggedIn ? undefined : hintId}
            onClick={() => void onQuote()}
          >
            {creating.isLoading ? 'Getting a quote…' : 'Get a quote'}
          </button>
          {!loggedIn && (
            <p id={hintId} className="text-sm text-zinc-300">
              You log in first (or create an account); your list stays here.
            </p>
          )}
          {problem && <ErrorLine message={problem} />}
          {quoteError && !problem && (
            <div className="flex flex-col gap-2">
              <ErrorLine message={quoteError} />
              {tooMany && (
                <Link to="/tradeins" className="font-semibold text-cyan-300 underline underline-offset-4">
                  See my trade-ins
                </Link>
              )}
            </div>
          )}
        </section>
      </div>
    </section>
  );
}
