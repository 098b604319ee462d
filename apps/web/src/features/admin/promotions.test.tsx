import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Product, Promotion } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { makeProduct, makeProductList } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { PromotionsSection } from './PromotionsSection';
import type { CodePromotion } from './promotion-form';
import { adminState, jsonBody, makePromotion } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * The promotions API as the server answers it: a list newest first, a create (or its refusal), a PUT
 * that merges the fields sent, a DELETE that deactivates; the shop's products for the picker.
 */
function servePromotions(
  initial: Promotion[],
  {
    refuseCreate,
    failList,
    products = [],
  }: { refuseCreate?: { status: number; body: unknown }; failList?: string; products?: Product[] } = {},
) {
  let promotions = initial;
  const sent: Sent[] = [];
  const mock = stubFetch(async (request, url) => {
    const { pathname } = url;
    if (pathname === '/api/promotions/admin' && request.method === 'GET') {
      if (failList) return jsonResponse({ message: failList }, 500);
      return jsonResponse(promotions);
    }
    if (pathname === '/api/promotions/admin' && request.method === 'POST') {
      const body = await jsonBody(request);
      sent.push({ method: 'POST', path: pathname, body });
      if (refuseCreate) return jsonResponse(refuseCreate.body, refuseCreate.status);
      const fields = body as Partial<Promotion>;
      // A sale has no code (issue 32).
      const created: Promotion =
        fields.kind === 'sale' ? makeSale(fields) : makePromotion(fields as Partial<CodePromotion>);
      promotions = [created, ...promotions];
      return jsonResponse(created, 201);
    }
    const one = /^\/api\/promotions\/admin\/([^/]+)$/.exec(pathname);
    if (one) {
      const found = promotions.find((p) => p._id === one[1]);
      if (!found) return jsonResponse({ message: 'Promotion not found' }, 404);
      let next = found;
      if (request.method === 'PUT') {
        const body = (await jsonBody(request)) as Partial<Promotion>;
        sent.push({ method: 'PUT', path: pathname, body });
        next = { ...found, ...body };
        next.state = next.active ? 'active' : 'inactive';
      } else if (request.method === 'DELETE') {
        sent.push({ method: 'DELETE', path: pathname });
        next = { ...found, active: false, state: 'inactive' };
      }
      promotions = promotions.map((p) => (p._id === found._id ? next : p));
      return jsonResponse(next);
    }
    if (pathname === '/api/products') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      return jsonResponse(makeProductList(products.filter((p) => p.productName.toLowerCase().includes(q))));
    }
    const product = /^\/api\/products\/([^/]+)$/.exec(pathname);
    if (product) {
      const found = products.find((p) => p._id === product[1]);
      return found ? jsonResponse(found) : jsonResponse({ message: 'Product not found' }, 404);
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, sent };
}

/** A scheduled sale as GET /api/promotions/admin lists it (issue 32): no code, a percent, a window. */
function makeSale(overrides: Partial<Promotion> = {}): Promotion {
  return {
    ...makePromotion(),
    code: null,
    kind: 'sale',
    value: 20,
    startsAt: '2026-11-27T08:00:00.000Z',
    endsAt: '2026-11-30T23:00:00.000Z',
    state: 'scheduled',
    ...overrides,
  };
}

function renderSection() {
  return renderWithProviders(<PromotionsSection />, { preloadedState: adminState });
}

/** The list item of a code, found by its heading. */
async function itemOf(code: string) {
  const heading = await screen.findByRole('heading', { name: code });
  return within(heading.closest('li')!);
}

describe('Promotions', () => {
  it('lists each code with what it does, its state in words, its uses and its dates', async () => {
    servePromotions([
      makePromotion({ code: 'RETRO10', categories: ['puzzles'], usageLimit: 100, used: 3 }),
      makePromotion({
        code: 'SHIPFREE',
        kind: 'free_shipping',
        value: 0,
        used: 3,
        startsAt: '2030-01-01T09:00:00.000Z',
        state: 'scheduled',
      }),
      makePromotion({ code: 'OLD5', kind: 'fixed', value: 5, active: false, state: 'inactive' }),
      makePromotion({ code: 'GONE', usageLimit: 2, used: 2, state: 'used_up' }),
      makePromotion({
        code: 'SUMMER',
        startsAt: '2020-06-01T00:00:00.000Z',
        endsAt: '2020-09-01T00:00:00.000Z',
        state: 'ended',
      }),
    ]);
    renderSection();

    const retro = await itemOf('RETRO10');
    expect(retro.getByText('10% off puzzles')).toBeInTheDocument();
    expect(retro.getByText('Active')).toBeInTheDocument();
    expect(retro.getByText('3 of 100 used')).toBeInTheDocument();
    expect(retro.getByText('Any time')).toBeInTheDocument();
    expect(retro.getByRole('button', { name: 'Deactivate RETRO10' })).toBeInTheDocument();

    const ship = await itemOf('SHIPFREE');
    expect(ship.getByText('Free shipping')).toBeInTheDocument();
    expect(ship.getByText('Scheduled')).toBeInTheDocument();
    expect(ship.getByText('3 used')).toBeInTheDocument();
    expect(ship.getByText(/^From/)).toHaveTextContent(/^From .*2030/);
    expect(ship.getByText(/2030/).closest('time')).toHaveAttribute('datetime', '2030-01-01T09:00:00.000Z');

    const old = await itemOf('OLD5');
    expect(old.getByText('$5.00 off')).toBeInTheDocument();
    expect(old.getByText('Inactive')).toBeInTheDocument();
    // An inactive code offers Activate instead of Deactivate.
    expect(old.getByRole('button', { name: 'Activate OLD5' })).toBeInTheDocument();
    expect(old.queryByRole('button', { name: 'Deactivate OLD5' })).not.toBeInTheDocument();

    expect((await itemOf('GONE')).getByText('Used up')).toBeInTheDocument();
    expect((await itemOf('GONE')).getByText('2 of 2 used')).toBeInTheDocument();
    const summer = await itemOf('SUMMER');
    expect(summer.getByText('Ended')).toBeInTheDocument();
    expect(summer.getByText(/^From/)).toHaveTextContent(/^From .*2020.* to .*2020/);
  });

  it('lists a scheduled sale beside the codes: named "Sale" and by what it does, when it runs, its state in words', async () => {
    servePromotions([makeSale({ categories: ['puzzles'] }), makePromotion({ code: 'RETRO10' })]);
    renderSection();
    await itemOf('RETRO10');
    expect(within(screen.getByRole('list', { name: 'Promotions' })).getAllByRole('listitem')).toHaveLength(2);
    const sale = await itemOf('Sale: 20% off puzzles');
    expect(sale.getByText('Scheduled')).toBeInTheDocument();
    expect(sale.getByText(/^From/)).toHaveTextContent(/^From .*2026.* to .*2026/);
    expect(sale.getByText(/^From/).querySelectorAll('time')[1]).toHaveAttribute(
      'datetime',
      '2026-11-30T23:00:00.000Z',
    );
    // A sale has no uses to count: there is no code to use.
    expect(sale.queryByText(/used$/)).not.toBeInTheDocument();
    expect(sale.getByRole('button', { name: 'Edit Sale: 20% off puzzles' })).toBeInTheDocument();
    expect(sale.getByRole('button', { name: 'Deactivate Sale: 20% off puzzles' })).toBeInTheDocument();
  });

  it("says 'No promotions yet' when there are none, and the server's message when the list fails", async () => {
    servePromotions([]);
    const { unmount } = renderSection();
    expect(await screen.findByText('No promotions yet')).toBeInTheDocument();
    unmount();

    vi.unstubAllGlobals();
    servePromotions([], { failList: 'Database unavailable' });
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Database unavailable');
    expect(screen.queryByText('No promotions yet')).not.toBeInTheDocument();
  });

  it('creates a fixed $5.50 code on two categories, sends the checked body and focuses the new code', async () => {
    const { sent } = servePromotions([makePromotion({ code: 'RETRO10' })]);
    const user = userEvent.setup();
    renderSection();
    await itemOf('RETRO10');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New Promotion' }));

    await user.type(dialog.getByLabelText('Code'), 'save5');
    expect(dialog.getByLabelText('Value (%)')).toBeInTheDocument();
    await user.selectOptions(dialog.getByLabelText('Kind'), 'Fixed amount');
    // The unit follows the kind.
    expect(dialog.queryByLabelText('Value (%)')).not.toBeInTheDocument();
    await user.type(dialog.getByLabelText('Value ($)'), '5.50');
    const categories = within(dialog.getByRole('group', { name: 'Categories' }));
    await user.click(categories.getByRole('checkbox', { name: 'Puzzles' }));
    await user.click(categories.getByRole('checkbox', { name: 'Board Games' }));
    await user.type(dialog.getByLabelText('Usage limit'), '50');
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));

    const heading = await screen.findByRole('heading', { name: 'SAVE5' });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/promotions/admin',
        body: {
          code: 'SAVE5',
          kind: 'fixed',
          value: 5.5,
          usageLimit: 50,
          categories: ['board-games', 'puzzles'],
          products: [],
          active: true,
        },
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(heading).toHaveFocus());
    const item = within(heading.closest('li')!);
    expect(item.getByText('$5.50 off board games and puzzles')).toBeInTheDocument();
    expect(item.getByText('0 of 50 used')).toBeInTheDocument();
    expect(screen.getByText('SAVE5 created')).toBeInTheDocument();
  });

  it('hides the value for free shipping and sends the dates in ISO, read in the browser time zone', async () => {
    const { sent } = servePromotions([]);
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No promotions yet');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Code'), 'SHIP-IT');
    await user.selectOptions(dialog.getByLabelText('Kind'), 'free_shipping');
    expect(dialog.queryByLabelText(/^Value/)).not.toBeInTheDocument();
    const when = within(dialog.getByRole('group', { name: 'When' }));
    fireEvent.change(when.getByLabelText('Starts'), { target: { value: '2026-12-01T10:00' } });
    fireEvent.change(when.getByLabelText('Ends'), { target: { value: '2026-12-01T09:00' } });
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    // Checked by the shared schema: nothing is sent.
    expect(await dialog.findByRole('alert')).toHaveTextContent('The end must be after the start');
    expect(sent).toEqual([]);

    fireEvent.change(when.getByLabelText('Ends'), { target: { value: '2026-12-24T18:30' } });
    await user.click(dialog.getByRole('checkbox', { name: 'Active' }));
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    await screen.findByRole('heading', { name: 'SHIP-IT' });
    expect(sent[0]?.body).toEqual({
      code: 'SHIP-IT',
      kind: 'free_shipping',
      value: 0,
      startsAt: new Date(2026, 11, 1, 10, 0).toISOString(),
      endsAt: new Date(2026, 11, 24, 18, 30).toISOString(),
      categories: [],
      products: [],
      active: false,
    });
  });

  it('refuses a percentage over 100 without a call', async () => {
    const { sent } = servePromotions([]);
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No promotions yet');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Code'), 'HUGE');
    await user.type(dialog.getByLabelText('Value (%)'), '150');
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'A percentage is a whole number from 1 to 100',
    );
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal of a code already taken and keeps the form open", async () => {
    const { sent } = servePromotions([], {
      refuseCreate: {
        status: 409,
        body: { code: 'CODE_TAKEN', message: 'A promotion with this code already exists' },
      },
    });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No promotions yet');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Code'), 'RETRO10');
    await user.type(dialog.getByLabelText('Value (%)'), '10');
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent('A promotion with this code already exists');
    expect(sent).toHaveLength(1);
    expect(dialog.getByLabelText('Code')).toHaveValue('RETRO10');
    expect(screen.getByText('No promotions yet')).toBeInTheDocument();
  });

  it('edits a code in the filled-in form and sends only the fields that changed', async () => {
    const promotion = makePromotion({
      code: 'RETRO10',
      categories: ['puzzles'],
      usageLimit: 100,
      used: 3,
      minSubtotal: 20,
      startsAt: '2026-11-01T08:00:00.000Z',
    });
    const { sent } = servePromotions([promotion]);
    const user = userEvent.setup();
    renderSection();
    const editButton = (await itemOf('RETRO10')).getByRole('button', { name: 'Edit RETRO10' });

    // Unchanged: the dialog closes without a call.
    await user.click(editButton);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save Changes' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.click(editButton);
    const dialog = within(screen.getByRole('dialog', { name: 'Edit RETRO10' }));
    expect(dialog.getByLabelText('Code')).toHaveValue('RETRO10');
    expect(dialog.getByLabelText('Value (%)')).toHaveValue(10);
    expect(dialog.getByLabelText('Minimum subtotal ($)')).toHaveValue(20);
    expect(dialog.getByLabelText('Usage limit')).toHaveValue(100);
    expect(dialog.getByRole('checkbox', { name: 'Puzzles' })).toBeChecked();
    expect(dialog.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(dialog.getByLabelText('Starts')).toHaveValue(
      (() => {
        const d = new Date('2026-11-01T08:00:00.000Z');
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      })(),
    );

    await user.clear(dialog.getByLabelText('Value (%)'));
    await user.type(dialog.getByLabelText('Value (%)'), '15');
    await user.clear(dialog.getByLabelText('Usage limit'));
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(await (await itemOf('RETRO10')).findByText('15% off puzzles')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: `/api/promotions/admin/${promotion._id}`,
        body: { value: 15, usageLimit: null },
      },
    ]);
    expect((await itemOf('RETRO10')).getByText('3 used')).toBeInTheDocument();
    // The dialog gives the focus back to the button that opened it.
    expect(editButton).toHaveFocus();
  });

  it('deactivates a code only after confirmation, then offers to activate it again', async () => {
    const promotion = makePromotion({ code: 'RETRO10' });
    const { sent } = servePromotions([promotion]);
    const user = userEvent.setup();
    renderSection();
    const item = await itemOf('RETRO10');

    await user.click(item.getByRole('button', { name: 'Deactivate RETRO10' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Deactivate RETRO10?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(sent).toEqual([]);
    expect(item.getByText('Active')).toBeInTheDocument();

    await user.click(item.getByRole('button', { name: 'Deactivate RETRO10' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await item.findByText('Inactive')).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'DELETE', path: `/api/promotions/admin/${promotion._id}` }]);
    const activate = item.getByRole('button', { name: 'Activate RETRO10' });
    // The same button, so the keyboard user's focus is still on it.
    expect(activate).toHaveFocus();

    await user.click(activate);
    expect(await item.findByText('Active')).toBeInTheDocument();
    expect(sent[1]).toEqual({
      method: 'PUT',
      path: `/api/promotions/admin/${promotion._id}`,
      body: { active: true },
    });
  });

  it('limits a code to products picked by name, and names them when the code is edited', async () => {
    const zelda = makeProduct({ productName: 'Zelda II' });
    const mario = makeProduct({ productName: 'Super Mario Bros' });
    const { sent, mock } = servePromotions([], { products: [zelda, mario] });
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No promotions yet');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Code'), 'ZELDA');
    await user.type(dialog.getByLabelText('Value (%)'), '20');
    const products = within(dialog.getByRole('group', { name: 'Products' }));
    expect(products.getByText('No products chosen')).toBeInTheDocument();
    const search = products.getByRole('searchbox', { name: 'Search products to add' });
    await user.type(search, 'zel{Enter}');
    // Enter in the search does not submit the form.
    expect(sent).toEqual([]);
    await user.click(await products.findByRole('button', { name: 'Add Zelda II' }));
    expect(
      within(products.getByRole('list', { name: 'Chosen products' })).getByText('Zelda II'),
    ).toBeInTheDocument();
    expect(search).toHaveFocus();
    expect(calledUrls(mock).some((u) => u.startsWith('/api/products?q=zel'))).toBe(true);
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));

    await screen.findByRole('heading', { name: 'ZELDA' });
    expect(sent[0]?.body).toMatchObject({ code: 'ZELDA', products: [zelda._id], categories: [] });
    expect(screen.getByText('20% off selected products')).toBeInTheDocument();

    // Read back: the form names the product it holds by id, and can take it out.
    await user.click(screen.getByRole('button', { name: 'Edit ZELDA' }));
    const edit = within(screen.getByRole('dialog', { name: 'Edit ZELDA' }));
    await user.click(await edit.findByRole('button', { name: 'Remove Zelda II' }));
    expect(edit.getByText('No products chosen')).toBeInTheDocument();
    await user.click(edit.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent[1]?.body).toEqual({ products: [] }));
  });
});

describe('Promotions: scheduled sales (issue 32)', () => {
  async function openNewSale() {
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('No promotions yet');
    await user.click(screen.getByRole('button', { name: 'New Promotion' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New Promotion' }));
    await user.selectOptions(dialog.getByLabelText('Kind'), 'Scheduled sale (no code)');
    return { user, dialog };
  }

  it('creates a 25% sale on puzzles: no code, minimum or limits asked, the dates sent in ISO, then lists it', async () => {
    const { sent } = servePromotions([]);
    const { user, dialog } = await openNewSale();
    expect(dialog.queryByLabelText('Code')).not.toBeInTheDocument();
    expect(dialog.queryByLabelText('Minimum subtotal ($)')).not.toBeInTheDocument();
    expect(dialog.queryByLabelText('Usage limit')).not.toBeInTheDocument();
    expect(dialog.queryByLabelText('Uses per customer')).not.toBeInTheDocument();
    const when = within(dialog.getByRole('group', { name: 'When' }));
    expect(when.getByLabelText('Starts')).toBeRequired();
    expect(when.getByLabelText('Ends')).toBeRequired();

    await user.type(dialog.getByLabelText('Value (%)'), '25');
    await user.click(
      within(dialog.getByRole('group', { name: 'Categories' })).getByRole('checkbox', { name: 'Puzzles' }),
    );
    fireEvent.change(when.getByLabelText('Starts'), { target: { value: '2026-11-27T09:00' } });
    fireEvent.change(when.getByLabelText('Ends'), { target: { value: '2026-11-30T18:00' } });
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));

    const heading = await screen.findByRole('heading', { name: 'Sale: 25% off puzzles' });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/promotions/admin',
        body: {
          kind: 'sale',
          value: 25,
          startsAt: new Date(2026, 10, 27, 9, 0).toISOString(),
          endsAt: new Date(2026, 10, 30, 18, 0).toISOString(),
          categories: ['puzzles'],
          products: [],
          active: true,
        },
      },
    ]);
    expect(sent[0]?.body).not.toHaveProperty('code');
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('Sale: 25% off puzzles created')).toBeInTheDocument();
  });

  it('refuses a sale without an end, or of 100%, without a call', async () => {
    const { sent } = servePromotions([]);
    const { user, dialog } = await openNewSale();
    await user.type(dialog.getByLabelText('Value (%)'), '25');
    fireEvent.change(dialog.getByLabelText('Starts'), { target: { value: '2026-11-27T09:00' } });
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('A sale needs a start and an end');

    fireEvent.change(dialog.getByLabelText('Ends'), { target: { value: '2026-11-30T18:00' } });
    await user.clear(dialog.getByLabelText('Value (%)'));
    await user.type(dialog.getByLabelText('Value (%)'), '100');
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'A sale takes a whole number percent from 1 to 99 off',
    );
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal of a sale in the form", async () => {
    const { sent } = servePromotions([], {
      refuseCreate: { status: 400, body: { message: 'A sale has no minimum subtotal or usage limits' } },
    });
    const { user, dialog } = await openNewSale();
    await user.type(dialog.getByLabelText('Value (%)'), '10');
    fireEvent.change(dialog.getByLabelText('Starts'), { target: { value: '2026-11-27T09:00' } });
    fireEvent.change(dialog.getByLabelText('Ends'), { target: { value: '2026-11-30T18:00' } });
    await user.click(dialog.getByRole('button', { name: 'Create Promotion' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'A sale has no minimum subtotal or usage limits',
    );
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'New Promotion' })).toBeInTheDocument();
  });

  it('edits a sale, which stays a sale, sending only its new end', async () => {
    const sale = makeSale({ categories: ['puzzles'] });
    const { sent } = servePromotions([sale]);
    const user = userEvent.setup();
    renderSection();
    await user.click(
      (await itemOf('Sale: 20% off puzzles')).getByRole('button', { name: 'Edit Sale: 20% off puzzles' }),
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Sale: 20% off puzzles' }));
    expect(dialog.queryByLabelText('Code')).not.toBeInTheDocument();
    expect(dialog.getByLabelText('Value (%)')).toHaveValue(20);
    // A sale cannot become a code (the server refuses it): the kind offers nothing else.
    expect(
      within(dialog.getByLabelText('Kind'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Scheduled sale (no code)']);
    fireEvent.change(dialog.getByLabelText('Ends'), { target: { value: '2026-12-02T18:00' } });
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: `/api/promotions/admin/${sale._id}`,
        body: { endsAt: new Date(2026, 11, 2, 18, 0).toISOString() },
      },
    ]);
    expect(screen.getByText('Sale: 20% off puzzles saved')).toBeInTheDocument();
  });

  it('offers no sale kind when a code is edited', async () => {
    servePromotions([makePromotion({ code: 'RETRO10' })]);
    const user = userEvent.setup();
    renderSection();
    await user.click((await itemOf('RETRO10')).getByRole('button', { name: 'Edit RETRO10' }));
    const kinds = within(within(screen.getByRole('dialog')).getByLabelText('Kind')).getAllByRole('option');
    expect(kinds.map((o) => o.textContent)).toEqual(['Percentage', 'Fixed amount', 'Free shipping']);
  });
});
