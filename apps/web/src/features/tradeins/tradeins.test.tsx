import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { BuylistEntry, TradeIn, TradeInItem } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import MyTradeInsPage from './MyTradeInsPage';
import SellPage from './SellPage';
import { SELL_LIST_KEY } from './sellList';
import TradeInPage from './TradeInPage';

const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
const TRADE_IN = uuid(900);

function entry(n: number, overrides: Partial<BuylistEntry> = {}): BuylistEntry {
  return {
    product: uuid(n),
    productName: `Game ${n}`,
    productCategory: 'retro-games',
    platform: 'Nintendo 64',
    image: '',
    variant: uuid(100 + n),
    sku: `SKU-${n}`,
    options: { Condition: 'Loose', Region: 'NTSC-U' },
    credit: 18,
    ...overrides,
  };
}

const MARIO = entry(1, { productName: 'Super Mario 64', credit: 18 });
const ZELDA = entry(2, { productName: 'Zelda', options: { Condition: 'Boxed' }, credit: 12.5 });

function item(n: number, overrides: Partial<TradeInItem> = {}): TradeInItem {
  return {
    _id: uuid(200 + n),
    product: uuid(n),
    variant: uuid(100 + n),
    productName: `Game ${n}`,
    options: { Condition: 'Loose' },
    sku: `SKU-${n}`,
    image: '',
    qty: 1,
    offeredCredit: 18,
    outcome: null,
    inspectedCredit: null,
    reason: null,
    ...overrides,
  };
}

function makeTradeIn(overrides: Partial<TradeIn> = {}): TradeIn {
  return {
    _id: TRADE_IN,
    status: 'quoted',
    items: [
      item(1, { productName: 'Super Mario 64', qty: 2 }),
      item(2, { productName: 'Zelda', offeredCredit: 12.5 }),
    ],
    totalCredit: 48.5,
    inspectedCredit: null,
    creditedAmount: 0,
    giftCardCode: null,
    trackingNumber: null,
    expiresAt: '2026-12-04T10:00:00.000Z',
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: '2026-11-27T10:00:00.000Z',
    timeline: [
      { kind: 'quoted', actor: 'customer', at: '2026-11-27T10:00:00.000Z', amount: 48.5, note: null },
    ],
    ...overrides,
  };
}

async function bodyOf(request: Request) {
  return JSON.parse(await request.clone().text()) as unknown;
}

function buylist(items: BuylistEntry[], page = 1, pages = 1, quoteDays = 10) {
  return jsonResponse({ items, page, pages, total: items.length, quoteDays });
}

function renderSell(loggedIn: boolean) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/sell" element={<SellPage />} />
        <Route path="/tradeins/:id" element={<TradeInPage shopAddress={['Pixel Vault', '1 Main St']} />} />
      </Routes>
      <LocationProbe />
    </>,
    { route: '/sell', preloadedState: { auth: { userInfo: loggedIn ? makeUser() : null } } },
  );
}

function renderTradeIn(id = TRADE_IN) {
  return renderWithProviders(
    <Routes>
      <Route path="/tradeins/:id" element={<TradeInPage shopAddress={['Pixel Vault', '1 Main St']} />} />
    </Routes>,
    { route: `/tradeins/${id}`, preloadedState: { auth: { userInfo: makeUser() } } },
  );
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Sell us your games', () => {
  it('searches the buy list once typing pauses and builds a list with its credit', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_request, url) =>
      buylist(url.searchParams.get('q') === 'zelda' ? [ZELDA] : [MARIO, ZELDA]),
    );
    renderSell(false);
    const list = await screen.findByRole('list', { name: 'Buy list' });
    expect(within(list).getByText('Super Mario 64')).toBeInTheDocument();
    expect(within(list).getByText('Nintendo 64 · Loose / NTSC-U')).toBeInTheDocument();
    // How long a quote holds is the shop's setting, as the buy list says it.
    expect(screen.getByText(/Get a quote: it holds for 10 days/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Search the buy list'), 'zelda');
    await waitFor(() => expect(screen.queryByText('Super Mario 64')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Add Zelda (Boxed) to your list' })).toBeInTheDocument();
    // One call for the first page, one once typing paused: not one per key.
    expect(calledUrls(fetchMock)).toEqual([
      '/api/tradeins/buylist?page=1&limit=12',
      '/api/tradeins/buylist?q=zelda&page=1&limit=12',
    ]);

    await user.click(screen.getByRole('button', { name: 'Add Zelda (Boxed) to your list' }));
    await user.click(screen.getByRole('button', { name: 'Add Zelda (Boxed) to your list' }));
    const mine = screen.getByRole('list', { name: 'Your list' });
    expect(within(mine).getByLabelText('Qty of Zelda (Boxed)')).toHaveValue(2);
    expect(screen.getByText('Credit for 2 items')).toBeInTheDocument();
    expect(screen.getAllByText('$25.00').length).toBeGreaterThan(0);
    expect(screen.getByText('Added Zelda (Boxed) to your list: 2 items, $25.00 in credit')).toHaveAttribute(
      'role',
      'status',
    );

    await user.clear(within(mine).getByLabelText('Qty of Zelda (Boxed)'));
    await user.type(within(mine).getByLabelText('Qty of Zelda (Boxed)'), '3');
    expect(screen.getByText('Credit for 3 items')).toBeInTheDocument();
    expect(screen.getAllByText('$37.50').length).toBeGreaterThan(0);
  });

  it('sends a visitor to log in and back, the list kept for the return', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => buylist([MARIO]));
    const first = renderSell(false);
    await user.click(
      await screen.findByRole('button', { name: 'Add Super Mario 64 (Loose / NTSC-U) to your list' }),
    );
    await user.click(screen.getByRole('button', { name: 'Get a quote' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fsell');
    expect(fetchMock.mock.calls.every(([input]) => (input as Request).method === 'GET')).toBe(true);
    expect(JSON.parse(sessionStorage.getItem(SELL_LIST_KEY) ?? '[]')).toHaveLength(1);
    first.unmount();

    // Back from the login page: the same list.
    renderSell(true);
    const mine = await screen.findByRole('list', { name: 'Your list' });
    expect(within(mine).getByText('Super Mario 64')).toBeInTheDocument();
    expect(within(mine).getByLabelText('Qty of Super Mario 64 (Loose / NTSC-U)')).toHaveValue(1);
  });

  it('gets a quote for a logged-in shopper and opens the trade-in, the list emptied', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const quoted = makeTradeIn();
    const fetchMock = stubFetch(async (request, url) => {
      if (url.pathname === '/api/tradeins' && request.method === 'POST') {
        sent.push(await bodyOf(request));
        return jsonResponse(quoted, 201);
      }
      if (url.pathname === `/api/tradeins/${TRADE_IN}`) return jsonResponse(quoted);
      return buylist([MARIO, ZELDA]);
    });
    renderSell(true);
    await user.click(
      await screen.findByRole('button', { name: 'Add Super Mario 64 (Loose / NTSC-U) to your list' }),
    );
    await user.click(screen.getByRole('button', { name: 'Add Zelda (Boxed) to your list' }));
    await user.click(screen.getByRole('button', { name: 'Get a quote' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Trade-in 00000000' })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        items: [
          { product: MARIO.product, variant: MARIO.variant, qty: 1 },
          { product: ZELDA.product, variant: ZELDA.variant, qty: 1 },
        ],
      },
    ]);
    expect(screen.getByTestId('location')).toHaveTextContent(`/tradeins/${TRADE_IN}`);
    await waitFor(() =>
      expect(screen.getByText(/Your quote is ready: \$48\.50 in store credit/)).toHaveFocus(),
    );
    // The answer of the quote is shown: the page does not ask for it again.
    expect(calledUrls(fetchMock).filter((u) => u === `/api/tradeins/${TRADE_IN}`)).toEqual([]);
    expect(sessionStorage.getItem(SELL_LIST_KEY)).toBeNull();
  });

  it('says the server’s refusal in an alert, the list kept', async () => {
    const user = userEvent.setup();
    stubFetch((request) =>
      request.method === 'POST'
        ? jsonResponse(
            { message: 'We do not buy Super Mario 64 (Loose / NTSC-U) any more', code: 'NOT_ON_BUYLIST' },
            400,
          )
        : buylist([MARIO]),
    );
    renderSell(true);
    await user.click(
      await screen.findByRole('button', { name: 'Add Super Mario 64 (Loose / NTSC-U) to your list' }),
    );
    await user.click(screen.getByRole('button', { name: 'Get a quote' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: We do not buy Super Mario 64 (Loose / NTSC-U) any more',
    );
    expect(screen.getByRole('list', { name: 'Your list' })).toBeInTheDocument();
  });

  it('refuses an empty list without a call', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => buylist([MARIO]));
    renderSell(true);
    await screen.findByRole('list', { name: 'Buy list' });
    await user.click(screen.getByRole('button', { name: 'Get a quote' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Add at least one item to get a quote');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('My Trade-ins', () => {
  it('lists the trade-ins with status, total and date, each linked', async () => {
    stubFetch(() =>
      jsonResponse([
        makeTradeIn({ status: 'inspected', inspectedCredit: 40 }),
        makeTradeIn({ _id: uuid(901), status: 'accepted', creditedAmount: 30, items: [item(3)] }),
      ]),
    );
    renderWithProviders(<MyTradeInsPage />, { preloadedState: { auth: { userInfo: makeUser() } } });
    const rows = within(await screen.findByRole('list', { name: 'Trade-ins' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Inspected');
    expect(rows[0]).toHaveTextContent('$40.00');
    expect(rows[0]).toHaveTextContent('3 items');
    expect(rows[1]).toHaveTextContent('Credited');
    expect(rows[1]).toHaveTextContent('$30.00');
    expect(within(rows[1]!).getByRole('link', { name: /View trade-in/ })).toHaveAttribute(
      'href',
      `/tradeins/${uuid(901)}`,
    );
  });

  it('says there is none yet, with the way to start', async () => {
    stubFetch(() => jsonResponse([]));
    renderWithProviders(<MyTradeInsPage />, { preloadedState: { auth: { userInfo: makeUser() } } });
    expect(await screen.findByText('You have not traded anything in yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sell us your games' })).toHaveAttribute('href', '/sell');
  });
});

describe('a trade-in’s next step', () => {
  it('marks a quote as shipped with its tracking number, and says so', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    stubFetch(async (request, url) => {
      if (url.pathname.endsWith('/ship')) {
        sent.push(await bodyOf(request));
        return jsonResponse(makeTradeIn({ status: 'shipped', trackingNumber: '1Z999' }));
      }
      return jsonResponse(makeTradeIn());
    });
    renderTradeIn();
    expect(await screen.findByText(/Your quote holds until/)).toHaveTextContent('Dec 4th 26');
    // The packing slip, with the id big and the shop's address.
    const slip = screen.getByRole('region', { name: 'Packing slip' });
    expect(slip).toHaveTextContent('00000000');
    expect(slip).toHaveTextContent(`Full number: ${TRADE_IN}`);
    expect(slip).toHaveTextContent('1 Main St');
    expect(slip).toHaveTextContent('Ada Lovelace');
    expect(within(slip).getByRole('button', { name: 'Print packing slip' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Tracking number (optional)'), '  1Z999 ');
    await user.click(screen.getByRole('button', { name: 'Mark as shipped' }));
    expect(await screen.findByText(/Marked as shipped\./)).toHaveAttribute('role', 'status');
    expect(sent).toEqual([{ trackingNumber: '1Z999' }]);
    await waitFor(() => expect(screen.getByText(/Marked as shipped\./)).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Mark as shipped' })).not.toBeInTheDocument();
    expect(screen.getByText('1Z999')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel trade-in' })).toBeInTheDocument();
  });

  it('cancels only once confirmed', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_request, url) =>
      jsonResponse(makeTradeIn(url.pathname.endsWith('/cancel') ? { status: 'cancelled' } : {})),
    );
    renderTradeIn();
    await user.click(await screen.findByRole('button', { name: 'Cancel trade-in' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this trade-in?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep trade-in' }));
    expect(calledUrls(fetchMock).some((u) => u.endsWith('/cancel'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Cancel trade-in' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel trade-in' }));
    expect(await screen.findByText('This trade-in was cancelled: nothing was credited.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get a new quote' })).toHaveAttribute('href', '/sell');
    expect(screen.queryByRole('region', { name: 'Packing slip' })).not.toBeInTheDocument();
  });

  it('shows an inspection’s differences, then accepts its credit', async () => {
    const user = userEvent.setup();
    const inspected = makeTradeIn({
      status: 'inspected',
      inspectedCredit: 42.5,
      items: [
        item(1, {
          productName: 'Super Mario 64',
          qty: 2,
          outcome: 'lowered',
          inspectedCredit: 15,
          reason: 'Label faded',
        }),
        item(2, { productName: 'Zelda', offeredCredit: 12.5, outcome: 'accepted', inspectedCredit: 12.5 }),
      ],
    });
    stubFetch((_request, url) =>
      jsonResponse(
        url.pathname.endsWith('/accept')
          ? { ...inspected, status: 'accepted', creditedAmount: 42.5, giftCardCode: 'TRADE-ABCD-1234' }
          : inspected,
      ),
    );
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderTradeIn();
    const changed = await screen.findByRole('list', { name: 'What changed' });
    expect(changed).toHaveTextContent('Super Mario 64 (Loose) (×2): Lowered to $15.00 each: Label faded');
    expect(within(changed).queryByText(/Zelda/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline and get the items back' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Accept $42.50 store credit' }));
    expect(await screen.findByText('TRADE-ABCD-1234')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/Accepted: your store credit is ready/)).toHaveFocus());
    expect(screen.getByText(/Spend it at checkout/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('TRADE-ABCD-1234');
    await waitFor(() => expect(screen.getByText('Code copied')).toBeInTheDocument());
  });

  it('shows a refused move in an alert', async () => {
    const user = userEvent.setup();
    stubFetch((_request, url) =>
      url.pathname.endsWith('/ship')
        ? jsonResponse({ message: 'This quote has expired', code: 'TRADE_IN_EXPIRED' }, 409)
        : jsonResponse(makeTradeIn()),
    );
    renderTradeIn();
    await user.click(await screen.findByRole('button', { name: 'Mark as shipped' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: This quote has expired');
  });

  it.each([
    ['expired', /This quote expired on Dec 4th 26/],
    ['returned', /You declined the inspected credit, so nothing was credited/],
    ['received', /Your box has arrived/],
  ] as const)('explains a %s trade-in, with no buttons to press', async (status, text) => {
    stubFetch(() => jsonResponse(makeTradeIn({ status })));
    renderTradeIn();
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /Mark as shipped|Cancel trade-in|Accept/ }),
    ).not.toBeInTheDocument();
  });

  it('says an unknown trade-in is not found', async () => {
    stubFetch(() => jsonResponse({ message: 'Trade-in not found' }, 404));
    renderTradeIn(uuid(999));
    expect(await screen.findByRole('heading', { level: 1, name: 'Trade-in not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My Trade-ins' })).toHaveAttribute('href', '/tradeins');
  });
});
