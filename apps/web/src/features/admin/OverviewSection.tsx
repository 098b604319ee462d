import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { STATS_DEFAULT_DAYS, formatDollars, type AdminStats } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useGetAdminStatsQuery, useGetMostWantedQuery } from './api';
import { editProductHref, sectionHref } from './dashboardLinks';
import { SalesChart } from './SalesChart';

const LINK = 'font-semibold text-cyan-300 underline underline-offset-4 hover:text-lime-300';

/** The ranges the admin picks from, in days (the range ends today). */
export const OVERVIEW_RANGES = [7, 30, 90, 365] as const;

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="flex min-w-0 flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4"
    >
      <h3 className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Totals({ totals }: { totals: AdminStats['totals'] }) {
  const facts = [
    ['Paid orders', String(totals.orders)],
    ['Revenue', formatDollars(totals.revenue)],
    ['Average order', formatDollars(totals.averageOrder)],
  ] as const;
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {facts.map(([term, value]) => (
        <div key={term} className="border-2 border-zinc-700 bg-zinc-950 p-3">
          <dt className="text-xs tracking-wide text-zinc-400 uppercase">{term}</dt>
          <dd className="text-xl font-semibold text-lime-300">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Overview (issue 15), the dashboard's first section: how the shop did over the last 7, 30, 90 or 365
 * days (paid orders, revenue, average order, the sales per day drawn and tabled), its best sellers,
 * the products low on stock (each linking to its edit form) and the orders waiting on someone. Issue 34:
 * the sold-out variants most shoppers wait for (back-in-stock alerts). Issue 35: the store credit paid
 * for trade-ins in the range and the items they bought.
 */
export function OverviewSection() {
  const [days, setDays] = useState<number>(STATS_DEFAULT_DAYS);
  // currentData: a new range shows the spinner, not the last range's numbers under the new button.
  const { currentData: stats, error } = useGetAdminStatsQuery(days);

  return (
    <div className="flex flex-col gap-6">
      <div role="group" aria-label="Range" className="flex flex-wrap gap-2">
        {OVERVIEW_RANGES.map((range) => (
          <button
            key={range}
            type="button"
            aria-pressed={range === days}
            className={`btn px-3 py-2 ${range === days ? 'btn-primary' : 'btn-secondary'}`}
            onClick={() => setDays(range)}
          >
            {range} days
          </button>
        ))}
      </div>
      {error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !stats ? (
        <Spinner label="Loading the overview" />
      ) : (
        <>
          <Totals totals={stats.totals} />
          <Panel title="Sales per day">
            {stats.totals.orders === 0 ? (
              <p className="text-zinc-300">No sales in this range</p>
            ) : (
              <SalesChart days={stats.days} />
            )}
          </Panel>
          <div className="grid gap-6 lg:grid-cols-2">
            <Panel title="Best sellers">
              {stats.topProducts.length === 0 ? (
                <p className="text-zinc-300">Nothing sold in this range</p>
              ) : (
                <ol className="flex flex-col gap-2">
                  {stats.topProducts.map((product) => (
                    <li key={product._id} className="flex flex-wrap justify-between gap-x-3">
                      <Link className={`${LINK} break-words`} to={editProductHref(product._id)}>
                        {product.productName}
                      </Link>
                      <span className="text-zinc-300">
                        {product.units} sold · {formatDollars(product.revenue)}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </Panel>
            <Panel title="Low stock">
              {stats.lowStock.length === 0 ? (
                <p className="text-zinc-300">No product is low on stock</p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {stats.lowStock.map((product) => (
                    <li key={product.variant} className="flex flex-wrap justify-between gap-x-3">
                      <Link className={`${LINK} break-words`} to={editProductHref(product._id)}>
                        {product.productName}
                        {product.variantTitle && (
                          <>
                            {' '}
                            <span className="text-zinc-400">({product.variantTitle})</span>
                          </>
                        )}
                      </Link>
                      <span className={product.stockQuantity === 0 ? 'text-red-400' : 'text-amber-300'}>
                        {product.stockQuantity === 0 ? 'Sold out' : `${product.stockQuantity} left`}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Panel>
          </div>
          <MostWantedPanel />
          <TradeInsPanel tradeIns={stats.tradeIns} />
          <Panel title="Open orders">
            <dl className="flex flex-wrap gap-x-6 gap-y-2">
              <div>
                <dt className="text-xs tracking-wide text-zinc-400 uppercase">Awaiting payment</dt>
                <dd className="text-lg font-semibold">{stats.openOrders.unpaid}</dd>
              </div>
              <div>
                <dt className="text-xs tracking-wide text-zinc-400 uppercase">To deliver</dt>
                <dd className="text-lg font-semibold">{stats.openOrders.toDeliver}</dd>
              </div>
            </dl>
            <Link className={`${LINK} self-start`} to={sectionHref('Manage Orders')}>
              Go to Manage Orders
            </Link>
          </Panel>
        </>
      )}
    </div>
  );
}

/** Issue 35: what the shop paid in store credit for trade-ins over the range, and how many items it got. */
function TradeInsPanel({ tradeIns }: { tradeIns: AdminStats['tradeIns'] }) {
  return (
    <Panel title="Trade-ins">
      <dl className="flex flex-wrap gap-x-6 gap-y-2">
        <div>
          <dt className="text-xs tracking-wide text-zinc-400 uppercase">Store credit issued</dt>
          <dd className="text-lg font-semibold">{formatDollars(tradeIns.creditIssued)}</dd>
        </div>
        <div>
          <dt className="text-xs tracking-wide text-zinc-400 uppercase">Items bought</dt>
          <dd className="text-lg font-semibold">{tradeIns.itemsBought}</dd>
        </div>
      </dl>
    </Panel>
  );
}

/** Issue 34: sold-out variants by the shoppers waiting for them, most first (each links to its edit form). */
function MostWantedPanel() {
  const { data, error, isLoading } = useGetMostWantedQuery();
  return (
    <Panel title="Most wanted (sold out)">
      {isLoading ? (
        <Spinner label="Loading the most wanted" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !data || data.items.length === 0 ? (
        <p className="text-zinc-300">Nobody is waiting for a sold-out product</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {data.items.map((item) => (
            <li key={item.variant} className="flex flex-wrap justify-between gap-x-3">
              <Link className={`${LINK} break-words`} to={editProductHref(item.product)}>
                {item.name}
                {item.variantTitle && (
                  <>
                    {' '}
                    <span className="text-zinc-400">({item.variantTitle})</span>
                  </>
                )}
              </Link>
              <span className="text-amber-300">
                {item.waiting} {item.waiting === 1 ? 'shopper waits' : 'shoppers wait'}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
