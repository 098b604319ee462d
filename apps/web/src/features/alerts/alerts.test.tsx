import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { ALERT_CONFIRM_SENT_MESSAGE, ALERT_UNSUBSCRIBED_MESSAGE } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import AlertConfirmPage from './AlertConfirmPage';
import AlertUnsubscribePage from './AlertUnsubscribePage';
import { MyAlerts } from './MyAlerts';
import { NotifyMe } from './NotifyMe';

const PRODUCT = '6f1c2d3e-4b5a-4c6d-8e7f-901234567891';
const VARIANT = '6f1c2d3e-4b5a-4c6d-8e7f-901234567892';

async function bodyOf(request: Request) {
  return JSON.parse(await request.clone().text()) as unknown;
}

describe('Notify me when it is back', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks a visitor for an e-mail and says the server’s answer', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    stubFetch(async (request) => {
      sent.push(await bodyOf(request));
      return jsonResponse({ message: ALERT_CONFIRM_SENT_MESSAGE }, 202);
    });
    renderWithProviders(<NotifyMe productId={PRODUCT} variantId={VARIANT} name="Zelda II" />);
    await user.type(screen.getByLabelText('Email'), 'vera@example.com');
    await user.click(screen.getByRole('button', { name: 'Notify me when it is back' }));
    expect(await screen.findByText(ALERT_CONFIRM_SENT_MESSAGE)).toBeInTheDocument();
    expect(sent).toEqual([{ product: PRODUCT, variant: VARIANT, email: 'vera@example.com' }]);
    expect(screen.queryByRole('button', { name: 'Notify me when it is back' })).not.toBeInTheDocument();
  });

  it('subscribes a logged-in shopper with one press, no e-mail asked', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    stubFetch(async (request) => {
      sent.push(await bodyOf(request));
      return jsonResponse({ _id: 'a1', product: PRODUCT, variant: VARIANT, status: 'waiting' }, 201);
    });
    renderWithProviders(<NotifyMe productId={PRODUCT} variantId={undefined} name="Tetris" />, {
      preloadedState: { auth: { userInfo: makeUser() } },
    });
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Notify me when it is back' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Done: we will e-mail you once when Tetris is back in stock.',
      ),
    );
    expect(sent).toEqual([{ product: PRODUCT }]);
  });

  it('shows the server’s refusal', async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse({ message: 'Tetris is in stock now', code: 'IN_STOCK' }, 409));
    renderWithProviders(<NotifyMe productId={PRODUCT} variantId={undefined} name="Tetris" />, {
      preloadedState: { auth: { userInfo: makeUser() } },
    });
    await user.click(screen.getByRole('button', { name: 'Notify me when it is back' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Tetris is in stock now');
  });
});

describe('alert links', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('confirms on opening the page and links to the product', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse({
        message: 'Alert confirmed',
        product: PRODUCT,
        variant: VARIANT,
        name: 'Zelda II',
        category: 'retro-games',
        status: 'waiting',
        inStock: false,
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="/alerts/confirm/:token" element={<AlertConfirmPage />} />
      </Routes>,
      { route: `/alerts/confirm/${'a'.repeat(43)}` },
    );
    expect(await screen.findByRole('link', { name: 'Zelda II' })).toHaveAttribute(
      'href',
      `/shop/retro-games/product/${PRODUCT}?variant=${VARIANT}`,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Alert confirmed');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes only when the button is pressed, never on opening the page', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse({ message: ALERT_UNSUBSCRIBED_MESSAGE }));
    renderWithProviders(
      <Routes>
        <Route path="/alerts/unsubscribe/:token" element={<AlertUnsubscribePage />} />
      </Routes>,
      { route: `/alerts/unsubscribe/${'f'.repeat(64)}` },
    );
    expect(screen.getByRole('heading', { name: 'Stop back-in-stock alerts?' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText(ALERT_UNSUBSCRIBED_MESSAGE)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('lists my alerts and cancels a waiting one', async () => {
    const user = userEvent.setup();
    const alert = {
      _id: 'a1',
      product: PRODUCT,
      variant: VARIANT,
      name: 'Zelda II',
      image: '',
      category: 'retro-games',
      status: 'waiting',
      countInStock: 0,
      createdAt: '2026-11-27T03:00:00.000Z',
      notifiedAt: null,
    };
    stubFetch((request) =>
      jsonResponse({ items: [request.method === 'DELETE' ? { ...alert, status: 'cancelled' } : alert] }),
    );
    renderWithProviders(<MyAlerts />, { preloadedState: { auth: { userInfo: makeUser() } } });
    await user.click(await screen.findByRole('button', { name: 'Cancel the alert for Zelda II' }));
    await waitFor(() => expect(screen.getByText('Cancelled')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Cancel the alert/ })).not.toBeInTheDocument();
  });
});
