import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminStats } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { OverviewSection } from './OverviewSection';
import { chartSummary } from './SalesChart';
import { adminState, makeStats, quietDays, tabTo } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ZELDA = '00000000-0000-4000-8000-000000000101';
const TETRIS = '00000000-0000-4000-8000-000000000102';
const ZELDA_ONLY = '00000000-0000-4000-a000-000000000101';
const TETRIS_LOOSE = '00000000-0000-4000-a000-000000000102';
const TETRIS_BOXED = '00000000-0000-4000-a000-000000000103';

/** Seven days ending 2026-11-23: sales on the 20th and the 22nd. */
function busyWeek(): AdminStats {
  const days = quietDays(7);
  days[3] = { date: '2026-11-20', orders: 2, revenue: 45.5 };
  days[5] = { date: '2026-11-22', orders: 1, revenue: 1234.25 };
  return makeStats({
    days,
    totals: { orders: 3, revenue: 1279.75, averageOrder: 426.58 },
    topProducts: [{ _id: ZELDA, productName: 'Zelda II', units: 3, revenue: 1200 }],
    lowStock: [
      {
        _id: TETRIS,
        productName: 'Tetris',
        stockQuantity: 0,
        variant: TETRIS_LOOSE,
        variantTitle: 'Loose',
        sku: 'TET-L',
      },
      {
        _id: TETRIS,
        productName: 'Tetris',
        stockQuantity: 1,
        variant: TETRIS_BOXED,
        variantTitle: 'Boxed',
        sku: 'TET-B',
      },
      {
        _id: ZELDA,
        productName: 'Zelda II',
        stockQuantity: 2,
        variant: ZELDA_ONLY,
        variantTitle: '',
        sku: 'ZEL',
      },
    ],
    openOrders: { unpaid: 4, toDeliver: 2 },
  });
}

/** Answers GET /api/admin/stats with `answer(days)`. */
/** Issue 34: the sold-out variants shoppers wait for, as GET /api/alerts/admin/most-wanted answers. */
const mostWanted = {
  items: [
    {
      product: 'p-zelda',
      variant: 'v-zelda-pal',
      variantTitle: 'Loose / PAL',
      name: 'Zelda II',
      sku: 'ZELDA-II-L-PAL',
      image: '',
      category: 'retro-games',
      waiting: 12,
      waitingSince: '2026-11-20T10:00:00.000Z',
    },
  ],
};

function serveStats(answer: (days: number) => AdminStats | Response) {
  return stubFetch((request, url) => {
    if (url.pathname === '/api/alerts/admin/most-wanted') return jsonResponse(mostWanted);
    if (url.pathname !== '/api/admin/stats') return jsonResponse({ message: 'Not found' }, 404);
    const result = answer(Number(url.searchParams.get('days')));
    return result instanceof Response ? result : jsonResponse(result);
  });
}

describe('Overview', () => {
  it('shows the store credit issued for trade-ins and the items they bought in the range (issue 35)', async () => {
    serveStats((days) =>
      makeStats({
        days: quietDays(days),
        tradeIns:
          days === 7 ? { creditIssued: 46.5, itemsBought: 3 } : { creditIssued: 1234, itemsBought: 57 },
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    const panel = await screen.findByRole('region', { name: 'Trade-ins' });
    const fact = (term: string) => within(panel).getByText(term).nextElementSibling;
    expect(fact('Store credit issued')).toHaveTextContent('$1,234.00');
    expect(fact('Items bought')).toHaveTextContent('57');
    await user.click(screen.getByRole('button', { name: '7 days' }));
    const week = await screen.findByRole('region', { name: 'Trade-ins' });
    await waitFor(() =>
      expect(within(week).getByText('Store credit issued').nextElementSibling).toHaveTextContent('$46.50'),
    );
    expect(within(week).getByText('Items bought').nextElementSibling).toHaveTextContent('3');
  });

  it('lists the sold-out variants most shoppers wait for (issue 34)', async () => {
    serveStats(() => busyWeek());
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    const link = await screen.findByRole('link', { name: 'Zelda II (Loose / PAL)' });
    expect(link.closest('li')).toHaveTextContent('12 shoppers wait');
  });

  it('shows the totals as money and the sales per day as a chart whose table holds the numbers', async () => {
    serveStats(() => busyWeek());
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });

    const chart = await screen.findByRole('img', { name: /^Revenue per day/ });
    expect(chart).toHaveAccessibleName(
      'Revenue per day from Nov 17, 2026 to Nov 23, 2026: $1,279.75 from 3 paid orders; best day Nov 22, 2026 with $1,234.25.',
    );
    expect(chart.querySelectorAll('rect')).toHaveLength(2);

    const totals = screen.getByText('Average order').closest('dl')!;
    const fact = (term: string) => within(totals).getByText(term).nextElementSibling;
    expect(fact('Paid orders')).toHaveTextContent('3');
    expect(fact('Revenue')).toHaveTextContent('$1,279.75');
    expect(fact('Average order')).toHaveTextContent('$426.58');

    const table = screen.getByRole('table', { name: 'Sales per day' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Nov 17, 20260$0.00',
      'Nov 18, 20260$0.00',
      'Nov 19, 20260$0.00',
      'Nov 20, 20262$45.50',
      'Nov 21, 20260$0.00',
      'Nov 22, 20261$1,234.25',
      'Nov 23, 20260$0.00',
    ]);
    expect(within(rows[3]!).getByRole('rowheader')).toHaveTextContent('Nov 20, 2026');
  });

  it('shows the table on screen with a toggle, and keeps it for screen readers while hidden', async () => {
    serveStats(() => busyWeek());
    const user = userEvent.setup();
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    const toggle = await screen.findByRole('button', { name: 'Show as table' });
    const holder = screen.getByRole('table', { name: 'Sales per day' }).parentElement!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', holder.id);
    expect(holder).toHaveClass('sr-only');

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');
    expect(holder).not.toHaveClass('sr-only');
  });

  it('asks for 30 days first, then the range picked, by mouse or keyboard', async () => {
    const mock = serveStats((days) => makeStats({ days: quietDays(days) }));
    const user = userEvent.setup();
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    expect(await screen.findByText('No sales in this range')).toBeInTheDocument();
    expect(calledUrls(mock).filter((u) => u.startsWith('/api/admin/stats'))).toEqual([
      '/api/admin/stats?days=30',
    ]);
    const range = screen.getByRole('group', { name: 'Range' });
    expect(within(range).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(range).getByRole('button', { name: '7 days' }));
    expect(within(range).getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(range).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'false');
    expect(await screen.findByText('No sales in this range')).toBeInTheDocument();
    expect(calledUrls(mock)).toContain('/api/admin/stats?days=7');

    const year = within(range).getByRole('button', { name: '365 days' });
    await tabTo(user, year);
    await user.keyboard('{Enter}');
    expect(year).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('No sales in this range')).toBeInTheDocument();
    expect(calledUrls(mock).filter((u) => u.startsWith('/api/admin/stats'))).toEqual([
      '/api/admin/stats?days=30',
      '/api/admin/stats?days=7',
      '/api/admin/stats?days=365',
    ]);
  });

  it('shows a spinner while loading, then the empty state of a range without sales', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    stubFetch(async () => {
      await gate;
      return jsonResponse(makeStats());
    });
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the overview');
    release();
    expect(await screen.findByText('No sales in this range')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('Nothing sold in this range')).toBeInTheDocument();
    expect(screen.getByText('No product is low on stock')).toBeInTheDocument();
  });

  it("shows the server's message when the numbers cannot be read", async () => {
    serveStats(() => jsonResponse({ message: 'Something went wrong' }, 500));
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong');
  });

  it("links every best seller and low-stock variant to its product's edit form, and shows what's open", async () => {
    serveStats(() => busyWeek());
    renderWithProviders(<OverviewSection />, { preloadedState: adminState });
    const best = await screen.findByRole('region', { name: 'Best sellers' });
    expect(within(best).getByRole('link', { name: 'Zelda II' })).toHaveAttribute(
      'href',
      `/admin/dashboard?section=update-product&product=${ZELDA}`,
    );
    expect(within(best).getByText('3 sold · $1,200.00')).toBeInTheDocument();

    const low = screen.getByRole('region', { name: 'Low stock' });
    const items = within(low).getAllByRole('listitem');
    // One row per variant (issue 31): two tiers of one game are two rows, each with its title.
    expect(items.map((item) => item.textContent)).toEqual([
      'Tetris (Loose)Sold out',
      'Tetris (Boxed)1 left',
      'Zelda II2 left',
    ]);
    for (const name of ['Tetris (Loose)', 'Tetris (Boxed)']) {
      expect(within(low).getByRole('link', { name })).toHaveAttribute(
        'href',
        `/admin/dashboard?section=update-product&product=${TETRIS}`,
      );
    }

    const open = screen.getByRole('region', { name: 'Open orders' });
    expect(within(open).getByText('Awaiting payment').nextElementSibling).toHaveTextContent('4');
    expect(within(open).getByText('To deliver').nextElementSibling).toHaveTextContent('2');
    expect(within(open).getByRole('link', { name: 'Go to Manage Orders' })).toHaveAttribute(
      'href',
      '/admin/dashboard?section=manage-orders',
    );
  });
});

describe('chartSummary', () => {
  it('names a range without sales without a best day', () => {
    expect(chartSummary(quietDays(2))).toBe(
      'Revenue per day from Nov 22, 2026 to Nov 23, 2026: $0.00 from 0 paid orders.',
    );
  });
});
