import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TradeIn, TradeInItem } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { adminState, jsonBody } from './test-helpers';
import { TradeInsSection } from './TradeInsSection';
import { inspectionProblems } from './TradeInsSectionInspect';

afterEach(() => vi.unstubAllGlobals());

const uuid = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;
const ID = uuid(900);

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

const MARIO = item(1, { productName: 'Super Mario 64', qty: 2, offeredCredit: 18 });
const ZELDA = item(2, { productName: 'Zelda', offeredCredit: 12.5 });

function makeTradeIn(overrides: Partial<TradeIn> = {}): TradeIn {
  return {
    _id: ID,
    status: 'received',
    items: [MARIO, ZELDA],
    totalCredit: 48.5,
    inspectedCredit: null,
    creditedAmount: 0,
    giftCardCode: null,
    trackingNumber: '1Z999',
    expiresAt: '2026-12-04T10:00:00.000Z',
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: '2026-11-27T11:00:00.000Z',
    timeline: [
      { kind: 'quoted', actor: 'customer', at: '2026-11-27T10:00:00.000Z', amount: 48.5, note: null },
      {
        kind: 'shipped',
        actor: 'customer',
        at: '2026-11-27T10:30:00.000Z',
        amount: null,
        note: 'Tracking 1Z999',
      },
    ],
    user: { _id: uuid(7), name: 'Sam Seller', email: 'sam@example.com' },
    ...overrides,
  };
}

function page(tradeIns: TradeIn[]) {
  return jsonResponse({ tradeIns, page: 1, pages: 1, total: tradeIns.length });
}

function renderSection(route = '/admin/dashboard?section=trade-ins') {
  return renderWithProviders(
    <>
      <TradeInsSection />
      <LocationProbe />
    </>,
    { route, preloadedState: adminState },
  );
}

describe('Trade-ins section: the queue', () => {
  it('shows what waits on the shop first (received, then shipped), and one status on demand', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_request, url) => {
      const status = url.searchParams.get('status');
      if (status === 'received') return page([makeTradeIn()]);
      if (status === 'shipped') return page([]);
      return page([makeTradeIn({ status: 'accepted', creditedAmount: 48.5 })]);
    });
    renderSection();
    const received = await screen.findByRole('region', { name: /Received: to inspect/ });
    expect(within(received).getByText('Sam Seller')).toBeInTheDocument();
    expect(within(received).getByText(/quoted \$48\.50/)).toBeInTheDocument();
    expect(await screen.findByText('No boxes on their way.')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Show'), 'Accepted (credited)');
    expect(await screen.findByText(/Accepted \(credited\) · 3 items/)).toBeInTheDocument();
    expect(calledUrls(fetchMock)).toContain('/api/tradeins/admin?status=accepted&page=1&limit=25');
  });

  it('opens a trade-in from the queue and by its full number, finds one by its slip reference, and goes back', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_request, url) => {
      if (url.pathname === `/api/tradeins/admin/${ID}`) return jsonResponse(makeTradeIn());
      const q = url.searchParams.get('q');
      if (q === 'NOPE1234') return page([]);
      return page([makeTradeIn()]);
    });
    renderSection();
    const [open] = await screen.findAllByRole('button', { name: /Open trade-in 00000000 of Sam Seller/ });
    await user.click(open!);
    expect(screen.getByTestId('location')).toHaveTextContent(`tradein=${ID}`);
    expect(await screen.findByText('Sam Seller <sam@example.com>')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to the queue' }));
    expect(screen.getByTestId('location')).not.toHaveTextContent('tradein=');

    const find = screen.getByLabelText('Find a trade-in');
    await user.type(find, 'NOPE1234');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText(/No trade-in matches/)).toBeInTheDocument();
    expect(calledUrls(fetchMock)).toContain('/api/tradeins/admin?q=NOPE1234&page=1&limit=25');
    await user.clear(find);
    await user.type(find, '00000000');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: /Found for “00000000”/ });
    await user.click(
      await within(found).findByRole('button', { name: /Open trade-in 00000000 of Sam Seller/ }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(`tradein=${ID}`);
    await user.click(await screen.findByRole('button', { name: 'Back to the queue' }));

    await user.clear(screen.getByLabelText('Find a trade-in'));
    await user.type(screen.getByLabelText('Find a trade-in'), ` ${ID.toUpperCase()} `);
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(screen.getByTestId('location')).toHaveTextContent(`tradein=${ID}`);
  });
});

describe('Trade-ins section: one trade-in', () => {
  it('marks a shipped box received, then shows the inspection form', async () => {
    const user = userEvent.setup();
    let status: TradeIn['status'] = 'shipped';
    stubFetch((request, url) => {
      if (url.pathname.endsWith('/receive') && request.method === 'POST') status = 'received';
      return jsonResponse(makeTradeIn({ status }));
    });
    renderSection(`/admin/dashboard?section=trade-ins&tradein=${ID}`);
    await user.click(await screen.findByRole('button', { name: 'Mark received' }));
    expect(
      await screen.findByRole('group', { name: /Super Mario 64 \(Loose\) × 2, quoted \$18\.00 each/ }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText('Marked as received: inspect the items below.')).toHaveFocus(),
    );
  });

  it('checks the inspection as the server does before sending it', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    stubFetch(async (request, url) => {
      if (url.pathname.endsWith('/inspect')) {
        sent.push(await jsonBody(request));
        return jsonResponse(makeTradeIn({ status: 'inspected', inspectedCredit: 42.5 }));
      }
      return jsonResponse(makeTradeIn());
    });
    renderSection(`/admin/dashboard?section=trade-ins&tradein=${ID}`);
    const mario = await screen.findByRole('group', { name: /Super Mario 64/ });
    const zelda = screen.getByRole('group', { name: /Zelda/ });

    // Nothing chosen: both lines named, the summary focused.
    await user.click(screen.getByRole('button', { name: 'Save inspection' }));
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('2 things to fix');
    expect(summary).toHaveTextContent('Choose accepted, lowered or rejected for Super Mario 64 (Loose)');
    await waitFor(() => expect(summary.parentElement).toHaveFocus());

    // Lowered: a credit below the quote and a reason.
    await user.click(within(mario).getByRole('radio', { name: 'Lower the credit' }));
    await user.click(within(zelda).getByRole('radio', { name: /Accept at the quote/ }));
    await user.type(within(mario).getByLabelText('Lowered credit per unit ($)'), '18');
    await user.click(screen.getByRole('button', { name: 'Save inspection' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The lowered credit must be below the quote ($18.00)',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Say why, for a lowered or rejected item');
    expect(within(mario).getByLabelText('Lowered credit per unit ($)')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(sent).toEqual([]);

    await user.clear(within(mario).getByLabelText('Lowered credit per unit ($)'));
    await user.type(within(mario).getByLabelText('Lowered credit per unit ($)'), '15');
    await user.type(within(mario).getByLabelText('Reason (the customer reads it)'), 'Label faded');
    // The totals follow: 2 × $15.00 + $12.50.
    expect(screen.getByText('$42.50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save inspection' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      items: [
        { _id: MARIO._id, outcome: 'lowered', credit: 15, reason: 'Label faded' },
        { _id: ZELDA._id, outcome: 'accepted' },
      ],
    });
    await waitFor(() => expect(screen.getByText(/Inspection saved: \$42\.50 offered/)).toHaveFocus());
  });

  it('shows the server’s refusal of an inspection', async () => {
    const user = userEvent.setup();
    stubFetch((_request, url) =>
      url.pathname.endsWith('/inspect')
        ? jsonResponse({ message: 'This trade-in was inspected already', code: 'TRADE_IN_MOVE' }, 409)
        : jsonResponse(makeTradeIn({ items: [ZELDA] })),
    );
    renderSection(`/admin/dashboard?section=trade-ins&tradein=${ID}`);
    await user.click(await screen.findByRole('radio', { name: 'Reject (send it back)' }));
    await user.type(screen.getByLabelText('Reason (the customer reads it)'), 'Not the game on the label');
    await user.click(screen.getByRole('button', { name: 'Save inspection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: This trade-in was inspected already');
  });
});

describe('inspectionProblems', () => {
  it('accepts a complete inspection and refuses a reason over the limit or a credit in fractions of a cent', () => {
    expect(
      inspectionProblems([MARIO, ZELDA], {
        [MARIO._id]: { outcome: 'rejected', credit: '', reason: 'Cracked cartridge' },
        [ZELDA._id]: { outcome: 'accepted', credit: '', reason: '' },
      }),
    ).toEqual({});
    expect(
      inspectionProblems([MARIO], {
        [MARIO._id]: { outcome: 'lowered', credit: '1.005', reason: 'x'.repeat(301) },
      }),
    ).toEqual({
      [MARIO._id]: { credit: 'At most two decimals', reason: 'A reason is at most 300 characters' },
    });
  });
});
