import { Link } from 'react-router';
import { formatOrderDate } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { Price } from '../../ui/Price';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetMyTradeInsQuery } from './api';
import { readableError } from '../../app/readableError';
import { StatusBadge } from './TradeInParts';
import { currentTotal } from './tradeInWords';

/** "3 items": the sum of the quantities. */
function itemsText(items: readonly { qty: number }[]): string {
  const n = items.reduce((sum, item) => sum + item.qty, 0);
  return `${n} ${n === 1 ? 'item' : 'items'}`;
}

/** /tradeins, "My Trade-ins" (issue 35): the shopper's trade-ins as the server lists them, each opened on its page. */
export default function MyTradeInsPage() {
  useDocumentTitle('My Trade-ins');
  const { data, error, isLoading } = useGetMyTradeInsQuery(undefined, { refetchOnMountOrArgChange: true });

  return (
    <section className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">My Trade-ins</h1>
      {isLoading ? (
        <Spinner label="Loading your trade-ins" />
      ) : error ? (
        <ErrorLine message={readableError(error)} />
      ) : !data || data.length === 0 ? (
        <div className="flex flex-col items-start gap-6">
          <p className="text-zinc-300">You have not traded anything in yet.</p>
          <Link to="/sell" className="btn btn-secondary">
            Sell us your games
          </Link>
        </div>
      ) : (
        <div className="flex flex-col gap-6">
          <ul aria-label="Trade-ins" className="flex flex-col gap-3">
            {data.map((tradeIn) => (
              <li
                key={tradeIn._id}
                className="grid grid-cols-2 items-center gap-x-4 gap-y-2 border-4 border-zinc-800 p-4 sm:grid-cols-[minmax(0,1fr)_auto_auto_auto]"
              >
                <span className="col-span-2 min-w-0 sm:col-span-1">
                  <span className="block font-semibold text-zinc-100">
                    {formatOrderDate(tradeIn.createdAt)}
                  </span>
                  <span className="block text-sm text-zinc-400">{itemsText(tradeIn.items)}</span>
                </span>
                <span>
                  <StatusBadge status={tradeIn.status} />
                </span>
                <Price
                  value={currentTotal(tradeIn)}
                  className="text-right font-semibold text-lime-300 tabular-nums"
                />
                <span className="col-span-2 sm:col-span-1 sm:text-right">
                  <Link
                    to={`/tradeins/${tradeIn._id}`}
                    className="font-semibold text-cyan-300 underline-offset-4 hover:underline"
                    aria-label={`View trade-in of ${formatOrderDate(tradeIn.createdAt)}, ${itemsText(tradeIn.items)}`}
                  >
                    View trade-in
                  </Link>
                </span>
              </li>
            ))}
          </ul>
          <Link to="/sell" className="btn btn-secondary self-start">
            Sell more games
          </Link>
        </div>
      )}
    </section>
  );
}
