import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAppDispatch } from '../../app/hooks';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { CartPanel } from './CartPanel';
import { openCart } from './cartPanelSlice';
import { initialCartState, type CartItem } from '../../app/cartSlice';

function OpenButton() {
  const dispatch = useAppDispatch();
  return (
    <button type="button" onClick={() => dispatch(openCart())}>
      Open cart
    </button>
  );
}

function renderPanel(items: CartItem[], { loggedIn = false, open = true } = {}) {
  return renderWithProviders(
    <>
      <OpenButton />
      <CartPanel />
      <LocationProbe />
    </>,
    {
      route: '/shop/retro-games',
      preloadedState: {
        cart: { ...initialCartState, cartItems: items },
        cartPanel: { isOpen: open },
        auth: { userInfo: loggedIn ? makeUser() : null },
      },
    },
  );
}

describe('CartPanel', () => {
  it('is a modal dialog named by its title', () => {
    renderPanel([]);
    const dialog = screen.getByRole('dialog', { name: 'Shopping cart' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
  });

  it('says so when the cart is empty and offers no checkout', () => {
    renderPanel([]);
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /checkout/i })).not.toBeInTheDocument();
  });

  it('shows each line with image, name, price and a quantity select offering exactly 1..countInStock', () => {
    const item = makeCartItem({ name: 'Zelda II', price: 24.5, countInStock: 4, qty: 2 });
    renderPanel([item]);
    const line = screen.getByRole('listitem');
    expect(within(line).getByRole('img', { name: 'Zelda II' })).toHaveAttribute('src', item.image);
    expect(within(line).getByText('Zelda II', { selector: 'p' })).toBeInTheDocument();
    expect(within(line).getByText('$24.50')).toBeInTheDocument();
    const select = within(line).getByLabelText('Qty of Zelda II');
    expect(select).toHaveValue('2');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['1', '2', '3', '4']);
  });

  it('computes the subtotal exactly: 3 x $19.99 = $59.97, and follows quantity changes', async () => {
    const user = userEvent.setup();
    renderPanel([makeCartItem({ name: 'Tetris', price: 19.99, qty: 3, countInStock: 5 })]);
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('$59.97');
    expect(screen.getByText('Shipping and taxes calculated at checkout.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Qty of Tetris'), '5');
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('$99.95');
  });

  it('removes a line', async () => {
    const user = userEvent.setup();
    renderPanel([makeCartItem({ name: 'Tetris' }), makeCartItem({ name: 'Doom', price: 5 })]);
    await user.click(screen.getByRole('button', { name: 'Remove Tetris' }));
    expect(screen.queryByText('Tetris')).not.toBeInTheDocument();
    expect(screen.getByText('Doom')).toBeInTheDocument();
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('$5.00');
    await user.click(screen.getByRole('button', { name: 'Remove Doom' }));
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
  });

  it("offers 'Checkout' to a logged-in shopper: it closes the panel and goes to /place-order", async () => {
    const user = userEvent.setup();
    const { store } = renderPanel([makeCartItem()], { loggedIn: true });
    expect(screen.queryByRole('button', { name: 'Login to Checkout' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/place-order$/);
    expect(store.getState().cartPanel.isOpen).toBe(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("offers 'Login to Checkout' to a visitor: it closes the panel and goes to /login", async () => {
    const user = userEvent.setup();
    const { store } = renderPanel([makeCartItem()]);
    expect(screen.queryByRole('button', { name: 'Checkout' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Login to Checkout' }));
    expect(screen.getByTestId('location').textContent).toMatch(/^\/login\?redirect=%2Fplace-order$/);
    expect(store.getState().cartPanel.isOpen).toBe(false);
  });

  it("closes with 'Continue Shopping' and keeps the cart", async () => {
    const user = userEvent.setup();
    const { store } = renderPanel([makeCartItem()]);
    await user.click(screen.getByRole('button', { name: 'Continue Shopping' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(store.getState().cart.cartItems).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/shop/retro-games');
  });

  it('moves focus in, keeps Tab inside, closes on Escape and gives focus back to the opener', async () => {
    const user = userEvent.setup();
    renderPanel([makeCartItem({ name: 'Tetris' })], { open: false });
    const opener = screen.getByRole('button', { name: 'Open cart' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Shopping cart' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('closes on a click on the overlay', async () => {
    const user = userEvent.setup();
    renderPanel([]);
    const overlay = screen.getByRole('dialog').previousElementSibling as HTMLElement;
    await user.click(overlay);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('CartPanel: two tiers of one game (issue 31)', () => {
  const zelda = makeCartItem({ name: 'Zelda II' });
  const loose = {
    ...zelda,
    variant: 'v-loose',
    variantTitle: 'Loose / NTSC-U',
    price: 34.5,
    countInStock: 3,
  };
  const boxed = {
    ...zelda,
    variant: 'v-boxed',
    variantTitle: 'Complete in box / PAL',
    price: 150,
    countInStock: 2,
  };

  it('shows each as a line with the title under the name, controls named by both', () => {
    renderPanel([loose, boxed, makeCartItem({ name: 'Tetris' })]);
    const [first, second, third] = screen.getAllByRole('listitem');
    expect(within(first!).getByText('Zelda II', { selector: 'p' })).toBeInTheDocument();
    expect(within(first!).getByText('Loose / NTSC-U', { selector: 'p' })).toBeInTheDocument();
    expect(within(first!).getByText('$34.50')).toBeInTheDocument();
    expect(within(second!).getByText('Complete in box / PAL', { selector: 'p' })).toBeInTheDocument();
    expect(within(second!).getByLabelText('Qty of Zelda II (Complete in box / PAL)')).toHaveValue('1');
    expect(
      within(second!).getByRole('button', { name: 'Remove Zelda II (Complete in box / PAL)' }),
    ).toBeVisible();
    // A product sold in one form: its name alone, as before.
    expect(
      within(third!)
        .getAllByText(/./, { selector: 'p' })
        .map((p) => p.textContent),
    ).toEqual(['Tetris']);
    expect(within(third!).getByRole('button', { name: 'Remove Tetris' })).toBeVisible();
  });

  it('changes and removes one tier, leaving the other', async () => {
    const user = userEvent.setup();
    renderPanel([loose, boxed]);
    await user.selectOptions(screen.getByLabelText('Qty of Zelda II (Loose / NTSC-U)'), '3');
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('$253.50');
    await user.click(screen.getByRole('button', { name: 'Remove Zelda II (Complete in box / PAL)' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Loose / NTSC-U')).toBeInTheDocument();
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('$103.50');
  });
});

describe('CartPanel of a logged-in shopper (issue 34)', () => {
  it('says when a line’s price changed since it was added, and when stock is short', () => {
    renderPanel(
      [
        makeCartItem({
          name: 'Zelda II',
          price: 30,
          addedPrice: 25,
          priceChanged: true,
          qty: 3,
          countInStock: 1,
          stockShort: true,
        }),
        makeCartItem({ name: 'Tetris', price: 8, addedPrice: 10, priceChanged: true }),
        makeCartItem({ name: 'Doom', price: 9, addedPrice: 9, priceChanged: false, stockShort: false }),
      ],
      { loggedIn: true },
    );
    const [zelda, tetris, doom] = screen.getAllByRole('listitem');
    expect(zelda).toHaveTextContent('Price changed since you added it: was $25.00');
    expect(zelda).toHaveTextContent('Only 1 left in stock');
    // The select still shows what the line asks for.
    expect(within(zelda!).getByLabelText('Qty of Zelda II')).toHaveValue('3');
    expect(tetris).toHaveTextContent('Price dropped since you added it: was $10.00');
    expect(doom).not.toHaveTextContent(/since you added it|left in stock/);
  });

  it('lists the lines the server dropped until they are dismissed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CartPanel />, {
      preloadedState: {
        cart: { ...initialCartState, cartItems: [] },
        cartPanel: { isOpen: true, notices: ['Zelda II (PAL) is no longer sold'] },
      },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Zelda II (PAL) is no longer sold');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Zelda II (PAL) is no longer sold')).not.toBeInTheDocument();
  });
});
