import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { makeProduct } from '../../test/factories';
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
