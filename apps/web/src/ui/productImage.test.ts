import { describe, expect, it } from 'vitest';
import { imageSrcSet } from './productImage';

describe('imageSrcSet', () => {
  it('offers the three WebP renditions of an uploaded image with their widths', () => {
    expect(imageSrcSet('/uploads/products/p1/abcd1234-detail.webp')).toBe(
      '/uploads/products/p1/abcd1234-thumb.webp 160w, /uploads/products/p1/abcd1234-card.webp 480w, /uploads/products/p1/abcd1234-detail.webp 960w',
    );
    // An absolute URL (PUBLIC_URL set) keeps its origin.
    expect(imageSrcSet('https://shop.example/uploads/products/p1/ff00ff00-detail.webp')).toMatch(
      /^https:\/\/shop\.example\/uploads\/products\/p1\/ff00ff00-thumb\.webp 160w, /,
    );
  });

  it('leaves other images alone: the seeded SVGs scale, and a WebP of another name is not ours', () => {
    expect(imageSrcSet('/uploads/products/zelda-0-38abe23e.svg')).toBeUndefined();
    expect(imageSrcSet('https://cdn.example/photo.webp')).toBeUndefined();
  });
});
