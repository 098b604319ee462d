import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { jsonResponse } from '../../test/fetch';
import { makeCartItem } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { makeOrder } from '../../test/orders';
import { initialCartState, type ShippingAddress } from '../../app/cartSlice';
import PlaceOrderPage from './PlaceOrderPage';
import { fakeShop } from './test-server';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** GET /api/config as a server with SHOP_COUNTRY set answers it (issue 30). */
const shopIn = (shopCountry: string | undefined, overrides: Parameters<typeof fakeShop>[0] = {}) =>
  fakeShop({
    ...overrides,
    overrides: {
      'GET /api/config': () =>
        jsonResponse({
          clientId: '',
          mode: 'demo',
          currency: 'USD',
          ...(shopCountry ? { shopCountry } : {}),
        }),
      ...overrides.overrides,
    },
  });

function renderCheckout(address: ShippingAddress | null) {
  return renderWithProviders(
    <Routes>
      <Route path="/place-order" element={<PlaceOrderPage />} />
      <Route path="/order-confirmation/:orderId" element={<p>Confirmation page</p>} />
    </Routes>,
    {
      route: '/place-order',
      preloadedState: {
        auth: { userInfo: makeUser() },
        cart: {
          ...initialCartState,
          cartItems: [makeCartItem({ name: 'Tetris', price: 45.2, qty: 1 })],
          shippingAddress: address,
        },
      },
    },
  );
}

const countrySelect = () => screen.getByRole('combobox', { name: 'Country' });
const optionTexts = (parent: HTMLElement) =>
  within(parent)
    .getAllByRole('option')
    .map((o) => o.textContent);

async function fillAddress(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Address'), '1 Hauptstraße');
  await user.type(screen.getByLabelText('City'), 'Berlin');
  await user.type(screen.getByLabelText('Postal Code'), '10115');
}

describe('checkout: Country is a select of ISO 3166 countries (issue 30)', () => {
  it("lists the shop's country first and chooses it, then every other country A to Z", async () => {
    shopIn('DE', { overrides: { 'GET /api/orders': () => jsonResponse([]) } });
    renderCheckout(null);
    const select = countrySelect();
    expect(select.tagName).toBe('SELECT');
    await waitFor(() => expect(select).toHaveValue('Germany'));
    const options = optionTexts(select);
    expect(options[0]).toBe('Germany');
    const group = within(select).getByRole('group', { name: 'All countries' });
    const others = optionTexts(group);
    // The 249 ISO 3166-1 countries: the shop's own, then the 248 others in English alphabetical order.
    expect(others).toHaveLength(248);
    expect(others).not.toContain('Germany');
    expect(others).toEqual([...others].sort((a, b) => new Intl.Collator('en').compare(a!, b!)));
    expect(others).toEqual(expect.arrayContaining(['United States', 'Canada', 'Åland Islands', 'Japan']));
    expect(options.indexOf('United States')).toBeGreaterThan(0);
  });

  it('puts the United States first when the server does not name a country (its default)', async () => {
    shopIn(undefined, { overrides: { 'GET /api/orders': () => jsonResponse([]) } });
    renderCheckout(null);
    await waitFor(() => expect(optionTexts(countrySelect())[0]).toBe('United States'));
    expect(countrySelect()).toHaveValue('United States');
  });

  it("sends the chosen country's English name as the spec's country string", async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = shopIn('DE', { orders: [order], overrides: { 'GET /api/orders': () => jsonResponse([]) } });
    const { store } = renderCheckout(null);
    await fillAddress(user);
    await waitFor(() => expect(countrySelect()).toHaveValue('Germany'));
    await user.selectOptions(countrySelect(), 'Austria');
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(store.getState().cart.shippingAddress).toEqual({
      address: '1 Hauptstraße',
      city: 'Berlin',
      postalCode: '10115',
      country: 'Austria',
    });
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(shop.calls('POST', '/api/orders')).toHaveLength(1));
    expect(shop.calls('POST', '/api/orders')[0]!.body).toMatchObject({
      shippingAddress: { country: 'Austria' },
    });
  });

  it("sends the shop's country when the customer leaves it as it is", async () => {
    const user = userEvent.setup();
    shopIn('DE', { overrides: { 'GET /api/orders': () => jsonResponse([]) } });
    const { store } = renderCheckout(null);
    await fillAddress(user);
    await waitFor(() => expect(countrySelect()).toHaveValue('Germany'));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(store.getState().cart.shippingAddress?.country).toBe('Germany');
  });

  it('keeps a saved country that is not in the list as an option of its own, and sends it unchanged', async () => {
    const user = userEvent.setup();
    shopIn('US');
    const { store } = renderCheckout({
      address: '1 Main St',
      city: 'Sacramento',
      postalCode: '95814',
      country: 'USA',
    });
    await waitFor(() => expect(optionTexts(countrySelect())[1]).toBe('United States'));
    expect(countrySelect()).toHaveValue('USA');
    expect(optionTexts(countrySelect())[0]).toBe('USA');
    // Another country can be chosen, and the kept one chosen back.
    await user.selectOptions(countrySelect(), 'Mexico');
    expect(countrySelect()).toHaveValue('Mexico');
    await user.selectOptions(countrySelect(), 'USA');
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(store.getState().cart.shippingAddress?.country).toBe('USA');
  });

  it("keeps the last order's free-text country when it prefills the address", async () => {
    shopIn('US', {
      overrides: {
        'GET /api/orders': () =>
          jsonResponse([
            makeOrder({
              shippingAddress: {
                address: '9 Pixel Road',
                city: 'Bonn',
                postalCode: '53111',
                country: 'Deutschland',
              },
            }),
          ]),
      },
    });
    renderCheckout(null);
    await waitFor(() => expect(countrySelect()).toHaveValue('Deutschland'));
    expect(screen.getByLabelText('City')).toHaveValue('Bonn');
    expect(optionTexts(countrySelect()).slice(0, 2)).toEqual(['Deutschland', 'United States']);
  });

  it('prefills a listed country from the last order without adding it twice', async () => {
    shopIn('US', {
      overrides: {
        'GET /api/orders': () =>
          jsonResponse([
            makeOrder({
              shippingAddress: {
                address: '1 Rue Rivoli',
                city: 'Paris',
                postalCode: '75001',
                country: 'France',
              },
            }),
          ]),
      },
    });
    renderCheckout(null);
    await waitFor(() => expect(countrySelect()).toHaveValue('France'));
    expect(optionTexts(countrySelect()).filter((name) => name === 'France')).toHaveLength(1);
    expect(optionTexts(countrySelect())[0]).toBe('United States');
  });
});
