import { Route, Routes, Link } from 'react-router';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { Layout } from './Layout';

afterEach(() => vi.restoreAllMocks());

describe('Layout', () => {
  it('leaves the page the app starts on where the shopper scrolled it; a navigation starts at the top', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    renderWithProviders(
      <Routes>
        <Route element={<Layout />}>
          <Route path="/shop/puzzles" element={<Link to="/about">Next page</Link>} />
          <Route path="/about" element={<h1>About</h1>} />
        </Route>
      </Routes>,
      { route: '/shop/puzzles' },
    );
    await screen.findByRole('link', { name: 'Next page' });
    // Hydrating a rendered page is not a navigation (issue 29): the shopper's next tap aims at what they see.
    expect(scrollTo).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('link', { name: 'Next page' }));
    await screen.findByRole('heading', { name: 'About' });
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });
});
