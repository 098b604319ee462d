import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_REVIEWS_PATH, type AdminReview } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { ManageReviewsSection, hiddenMessage } from './ManageReviewsSection';
import { adminState, jsonBody } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

let seq = 0;
function makeAdminReview(overrides: Partial<AdminReview> = {}): AdminReview {
  seq += 1;
  const id = `00000000-0000-4000-c000-${String(seq).padStart(12, '0')}`;
  return {
    _id: id,
    productId: '00000000-0000-4000-c000-0000000000ff',
    productName: 'Super Mario Bros. 3',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    rating: 4,
    title: `Review ${seq}`,
    comment: 'Plays well.',
    createdAt: '2024-01-05T10:00:00.000Z',
    updatedAt: '2024-01-05T10:00:00.000Z',
    verifiedBuyer: true,
    hidden: false,
    ...overrides,
  };
}

const page = (reviews: AdminReview[]) => ({ reviews, page: 1, totalPage: 1, total: reviews.length });

describe('Manage Reviews', () => {
  it('lists the reviews in a table and asks the server for the search and the visibility filter', async () => {
    const user = userEvent.setup();
    const review = makeAdminReview({ title: '<b>Loud</b>', comment: 'Line 1\nLine 2' });
    const mock = stubFetch(() => jsonResponse(page([review])));
    renderWithProviders(<ManageReviewsSection />, { preloadedState: adminState });

    const table = await screen.findByRole('table', { name: 'Reviews' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Author', 'E-mail', 'Rating', 'Title', 'Date', 'Status', 'Action']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Super Mario Bros. 3')).toBeInTheDocument();
    expect(within(row).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'Rated 4 out of 5' })).toBeInTheDocument();
    // Typed text stays text.
    expect(within(row).getByText('<b>Loud</b>')).toBeInTheDocument();
    expect(row.querySelector('b')).toBeNull();
    expect(within(row).getByText('Jan 5th 24')).toBeInTheDocument();
    expect(within(row).getByText('Visible')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search reviews' }), 'grace');
    await user.selectOptions(screen.getByLabelText('Show'), 'Hidden only');
    await waitFor(() =>
      expect(calledUrls(mock)).toContain(`${ADMIN_REVIEWS_PATH}?search=grace&hidden=true&page=1`),
    );
    expect(calledUrls(mock)[0]).toBe(`${ADMIN_REVIEWS_PATH}?page=1`);
  });

  it("hides a review with a busy button, says so, and shows an unhidden one's button as Unhide", async () => {
    const user = userEvent.setup();
    const shown = makeAdminReview({ title: 'Too spicy' });
    const hidden = makeAdminReview({ title: 'Already hidden', hidden: true });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writes: { path: string; body: unknown }[] = [];
    let state = [shown, hidden];
    stubFetch(async (request, url) => {
      if (request.method === 'PUT') {
        writes.push({ path: url.pathname, body: await jsonBody(request) });
        await gate;
        state = [{ ...shown, hidden: true }, hidden];
        return jsonResponse(state[0]);
      }
      return jsonResponse(page(state));
    });
    renderWithProviders(<ManageReviewsSection />, { preloadedState: adminState });

    expect(await screen.findByRole('button', { name: 'Unhide review: Already hidden' })).toHaveTextContent(
      'Unhide',
    );
    await user.click(screen.getByRole('button', { name: 'Hide review: Too spicy' }));
    expect(screen.getByRole('button', { name: 'Hide review: Too spicy' })).toHaveTextContent('Hiding...');
    expect(screen.getByRole('button', { name: 'Hide review: Too spicy' })).toBeDisabled();
    release();
    // The status line exists (empty) from the start: wait for its text, not for the element.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(hiddenMessage(shown, true)));
    expect(writes).toEqual([
      { path: `/api/products/${shown.productId}/reviews/${shown._id}/hide`, body: { hidden: true } },
    ]);
    // The list is read again: both are hidden now.
    expect(await screen.findByRole('button', { name: 'Unhide review: Too spicy' })).toBeEnabled();
  });

  it("shows the server's refusal under the button", async () => {
    const user = userEvent.setup();
    const review = makeAdminReview({ title: 'Gone' });
    stubFetch((request) =>
      request.method === 'PUT'
        ? jsonResponse({ message: 'Review not found' }, 404)
        : jsonResponse(page([review])),
    );
    renderWithProviders(<ManageReviewsSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Hide review: Gone' }));
    expect(await screen.findByText('Error: Review not found')).toBeInTheDocument();
  });

  it("says 'No reviews found' for an empty result", async () => {
    stubFetch(() => jsonResponse(page([])));
    renderWithProviders(<ManageReviewsSection />, { preloadedState: adminState });
    expect(await screen.findByText('No reviews found')).toBeInTheDocument();
  });
});
