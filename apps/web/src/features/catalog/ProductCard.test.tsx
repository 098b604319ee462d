import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { makeProduct, makeTieredProduct } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { ProductCard, tiltFor } from './ProductCard';

describe('card tilt (spec section 9: at most 16.25 degrees per axis)', () => {
  it('is flat at the centre and at most 16.25 degrees at the corners', () => {
    expect(tiltFor(100, 50, 200, 100)).toEqual({ rotateX: 0, rotateY: 0 });
    expect(tiltFor(200, 100, 200, 100)).toEqual({ rotateX: -16.25, rotateY: 16.25 });
    expect(tiltFor(0, 0, 200, 100)).toEqual({ rotateX: 16.25, rotateY: -16.25 });
    expect(tiltFor(500, -300, 200, 100)).toEqual({ rotateX: 16.25, rotateY: 16.25 });
  });

  it('follows the mouse and resets on mouse leave', () => {
    renderWithProviders(<ProductCard product={makeProduct({ productName: 'Catan' })} />);
    const card = screen.getByRole('link', { name: /Catan/ });
    card.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 100 }) as DOMRect;
    fireEvent.mouseMove(card, { clientX: 200, clientY: 0 });
    expect(card.style.transform).toContain('rotateX(16.25deg) rotateY(16.25deg)');
    fireEvent.mouseLeave(card);
    expect(card.style.transform).toBe('');
  });
});

describe('a sold-out card (issue 30)', () => {
  it('says "Sold out" in words, part of the link a screen reader reads; a card in stock does not', () => {
    renderWithProviders(
      <>
        <ProductCard product={makeProduct({ productName: 'Boxed Virtual Boy', stockQuantity: 0 })} />
        <ProductCard product={makeProduct({ productName: 'Loose Game Boy', stockQuantity: 2 })} />
      </>,
    );
    expect(screen.getByRole('link', { name: /Boxed Virtual Boy/ })).toHaveAccessibleName(/Sold out/);
    expect(screen.getByRole('link', { name: /Loose Game Boy/ })).not.toHaveAccessibleName(/Sold out/);
  });
});

describe('a card of a game sold in tiers (issue 31)', () => {
  it('says "from" the lowest price when its tiers cost different amounts, and the one price otherwise', () => {
    renderWithProviders(
      <>
        <ProductCard
          product={makeTieredProduct(
            [
              { options: { Condition: 'Complete in box' }, price: 134.5, stockQuantity: 1 },
              { options: { Condition: 'Loose' }, price: 34.5, stockQuantity: 2 },
            ],
            { productName: 'Zelda II' },
          )}
        />
        <ProductCard
          product={makeTieredProduct(
            [
              { options: { Region: 'NTSC-U' }, price: 20, stockQuantity: 1 },
              { options: { Region: 'PAL' }, price: 20, stockQuantity: 1 },
            ],
            { productName: 'Tetris' },
          )}
        />
      </>,
    );
    expect(screen.getByRole('link', { name: /Zelda II/ })).toHaveAccessibleName(/from \$34\.50/);
    expect(screen.getByRole('link', { name: /Zelda II/ })).not.toHaveAccessibleName(/\$134\.50/);
    expect(screen.getByRole('link', { name: /Tetris/ })).toHaveAccessibleName(/\$20\.00/);
    expect(screen.getByRole('link', { name: /Tetris/ })).not.toHaveAccessibleName(/from/);
  });

  it('is sold out only when every tier is, whatever the default one has', () => {
    renderWithProviders(
      <>
        <ProductCard
          product={makeTieredProduct(
            [
              { options: { Condition: 'New' }, price: 90, stockQuantity: 0 },
              { options: { Condition: 'Loose' }, price: 30, stockQuantity: 1 },
            ],
            { productName: 'Boxed Virtual Boy' },
          )}
        />
        <ProductCard
          product={makeTieredProduct(
            [
              { options: { Condition: 'New' }, price: 90, stockQuantity: 0 },
              { options: { Condition: 'Loose' }, price: 30, stockQuantity: 0 },
            ],
            { productName: 'Loose Game Boy' },
          )}
        />
      </>,
    );
    expect(screen.getByRole('link', { name: /Boxed Virtual Boy/ })).not.toHaveAccessibleName(/Sold out/);
    expect(screen.getByRole('link', { name: /Loose Game Boy/ })).toHaveAccessibleName(/Sold out/);
  });
});

describe('a card during a sale (issue 32)', () => {
  const ENDS = '2026-11-30T12:00:00.000Z';

  it('shows a Sale badge, the sale price and the regular one struck through, each named for a screen reader', () => {
    const product = makeTieredProduct([{ options: {}, price: 30, compareAtPrice: 40, stockQuantity: 2 }], {
      productName: 'Catan',
      compareAtPrice: 40,
      saleEndsAt: ENDS,
    });
    renderWithProviders(<ProductCard product={product} />);
    const card = screen.getByRole('link', { name: /Catan/ });
    expect(within(card).getByText('Sale')).toBeVisible();
    const struck = card.querySelector('s');
    expect(struck).toHaveTextContent('Regular price $40.00');
    expect(card).toHaveAccessibleName(/Sale price \$30\.00 Regular price \$40\.00/);
  });

  it('keeps "from" the lowest sale price for a product whose tiers cost different amounts, beside its regular price', () => {
    const product = makeTieredProduct(
      [
        { options: { Condition: 'Complete in box' }, price: 90, compareAtPrice: 120, stockQuantity: 1 },
        { options: { Condition: 'Loose' }, price: 30, compareAtPrice: 40, stockQuantity: 2 },
      ],
      { productName: 'Zelda II', compareAtPrice: 120, saleEndsAt: ENDS },
    );
    renderWithProviders(<ProductCard product={product} />);
    const card = screen.getByRole('link', { name: /Zelda II/ });
    expect(card).toHaveAccessibleName(/Sale price from \$30\.00 Regular price \$40\.00/);
    expect(card.querySelector('s')).toHaveTextContent('$40.00');
    expect(card).not.toHaveAccessibleName(/\$90\.00|\$120\.00/);
  });

  it('shows no badge and nothing struck through outside a sale', () => {
    renderWithProviders(<ProductCard product={makeProduct({ productName: 'Tetris', productPrice: 20 })} />);
    const card = screen.getByRole('link', { name: /Tetris/ });
    expect(card).toHaveAccessibleName(/\$20\.00/);
    expect(card.querySelector('s')).toBeNull();
    expect(within(card).queryByText('Sale')).not.toBeInTheDocument();
    expect(card).not.toHaveAccessibleName(/Regular price/);
  });
});

describe('a card of a game or console with a platform (issue 33)', () => {
  it('shows the platform under the name, read as "Platform: …" with the link; none when it has none', () => {
    renderWithProviders(
      <>
        <ProductCard product={makeProduct({ productName: 'Neon Drift 64', platform: 'Nintendo 64' })} />
        <ProductCard product={makeProduct({ productName: 'Harbor Lanterns', platform: null })} />
      </>,
    );
    const racer = screen.getByRole('link', { name: /Neon Drift 64/ });
    expect(within(racer).getByText('Nintendo 64')).toBeVisible();
    expect(racer).toHaveAccessibleName(/Neon Drift 64 Platform: Nintendo 64/);
    const board = screen.getByRole('link', { name: /Harbor Lanterns/ });
    expect(board).not.toHaveAccessibleName(/Platform/);
    expect(within(board).queryByText(/Platform/)).not.toBeInTheDocument();
  });
});
