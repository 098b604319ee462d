import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { MyReviewAnswer, Review, ReviewPage } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import ProductReviews from './ProductReviews';
import { A_BUYER, NOT_A_BUYER, PRODUCT_ID, makeReview, makeReviewPage } from './test-helpers';
import { DELETE_QUESTION } from './WriteReview';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PAGE_PATH = `/shop/retro-games/product/${PRODUCT_ID}`;
const REVIEWS = `/api/products/${PRODUCT_ID}/reviews`;
const loggedIn = { auth: { userInfo: makeUser({ name: 'Ada Lovelace' }) } };

interface Server {
  page?: (url: URL) => ReviewPage;
  mine?: MyReviewAnswer;
  /** Answers a write; `mine` becomes what it returns as `after`, as the server's would. */
  write?: (request: Request) => Promise<{ response: Response; after?: MyReviewAnswer }>;
}

/** The reviews routes of one product; every other call is a 404. */
function serve({ page = () => makeReviewPage([]), mine = A_BUYER, write }: Server) {
  let current = mine;
  return stubFetch(async (request, url) => {
    if (url.pathname === REVIEWS && request.method === 'GET') return jsonResponse(page(url));
    if (url.pathname === `${REVIEWS}/mine`) return jsonResponse(current);
    if (url.pathname.startsWith(REVIEWS) && write) {
      const { response, after } = await write(request);
      if (after) current = after;
      return response;
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
}

const mine = (review: Review): MyReviewAnswer => ({
  canReview: false,
  reason: 'You have already reviewed this product.',
  review,
});

function renderReviews({ state, hash = '' }: { state?: typeof loggedIn; hash?: string } = {}) {
  return renderWithProviders(
    <Routes>
      <Route path="/shop/:category/product/:id" element={<ProductReviews productId={PRODUCT_ID} />} />
    </Routes>,
    { route: PAGE_PATH + hash, ...(state ? { preloadedState: state } : {}) },
  );
}

describe('ProductReviews: the list', () => {
  it('shows the summary and the reviews, sorts them and pages through them', async () => {
    const user = userEvent.setup();
    const mock = serve({
      page: (url) =>
        makeReviewPage([makeReview({ title: `Page ${url.searchParams.get('page')} review` })], {
          page: Number(url.searchParams.get('page')),
          totalPage: 3,
          total: 21,
        }),
    });
    renderReviews();
    expect(screen.getByRole('status', { name: 'Loading reviews' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Page 1 review' })).toBeInTheDocument();
    expect(screen.getByText('Verified buyer')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Page 2 review' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Sort reviews'), 'Lowest rating first');
    expect(await screen.findByRole('heading', { name: 'Page 1 review' })).toBeInTheDocument();
    expect(calledUrls(mock)).toEqual([
      `${REVIEWS}?page=1&sort=newest`,
      `${REVIEWS}?page=2&sort=newest`,
      `${REVIEWS}?page=1&sort=lowest`,
    ]);
  });

  it("shows 'Error: {message}' and a retry when the reviews cannot be read", async () => {
    let calls = 0;
    stubFetch(() =>
      ++calls === 1
        ? jsonResponse({ message: 'Database unavailable' }, 503)
        : jsonResponse(makeReviewPage([])),
    );
    const user = userEvent.setup();
    renderReviews();
    expect(await screen.findByText('Error: Database unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No reviews yet.')).toBeInTheDocument();
  });
});

describe('ProductReviews: who may write', () => {
  it('offers a visitor "Log in to write a review", back to the form afterwards, and asks nothing about them', async () => {
    const mock = serve({});
    renderReviews();
    const link = await screen.findByRole('link', { name: 'Log in to write a review' });
    expect(link).toHaveAttribute(
      'href',
      `/login?redirect=${encodeURIComponent(`${PAGE_PATH}#write-review`)}`,
    );
    expect(calledUrls(mock).some((url) => url.endsWith('/mine'))).toBe(false);
  });

  it("shows a customer who did not buy the product the server's reason, and no form", async () => {
    serve({ mine: NOT_A_BUYER });
    renderReviews({ state: loggedIn });
    expect(await screen.findByText(NOT_A_BUYER.reason!)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Write a review' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in to write a review' })).not.toBeInTheDocument();
  });

  it('lets a verified buyer write a review: the form opens, sends, and gives way to their review', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const created = makeReview({
      name: 'Ada Lovelace',
      rating: 4,
      title: 'Great port',
      comment: 'Runs well.',
    });
    const mock = serve({
      write: async (request) => {
        sent = await request.json();
        await gate;
        return { response: jsonResponse(created, 201), after: mine(created) };
      },
    });
    renderReviews({ state: loggedIn });
    await user.click(await screen.findByRole('button', { name: 'Write a review' }));
    // The form's code loads on demand; once drawn it has the focus.
    const form = await screen.findByRole('form', { name: 'Write a review' });
    await waitFor(() => expect(within(form).getByRole('radio', { name: '1 star' })).toHaveFocus());
    await user.click(within(form).getByRole('radio', { name: '4 stars' }));
    await user.type(within(form).getByLabelText('Title'), 'Great port');
    await user.type(within(form).getByLabelText('Review'), 'Runs well.');
    await user.click(within(form).getByRole('button', { name: 'Submit review' }));

    expect(await screen.findByRole('button', { name: 'Submitting...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Thank you! Your review is published.')).toBeInTheDocument();
    expect(sent).toEqual({ rating: 4, title: 'Great port', comment: 'Runs well.' });
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your review' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    // The list, the summary and the viewer's answer are read again.
    await waitFor(() =>
      expect(calledUrls(mock).filter((url) => url === `${REVIEWS}?page=1&sort=newest`)).toHaveLength(2),
    );
  });

  it('opens the form and focuses it when the address asks for #write-review', async () => {
    serve({});
    renderReviews({ state: loggedIn, hash: '#write-review' });
    const form = await screen.findByRole('form', { name: 'Write a review' });
    await waitFor(() => expect(within(form).getByRole('radio', { name: '1 star' })).toHaveFocus());
  });

  it("shows the server's refusal of a review in an alert, and keeps the form", async () => {
    const user = userEvent.setup();
    serve({
      write: async () => ({
        response: jsonResponse({ message: 'Too many reviews; try again in a minute.' }, 429),
      }),
    });
    renderReviews({ state: loggedIn, hash: '#write-review' });
    const form = await screen.findByRole('form', { name: 'Write a review' });
    await user.click(within(form).getByRole('radio', { name: '5 stars' }));
    await user.type(within(form).getByLabelText('Title'), 'Wow');
    await user.type(within(form).getByLabelText('Review'), 'Loved it.');
    await user.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Too many reviews; try again in a minute.',
    );
    expect(within(form).getByLabelText('Title')).toHaveValue('Wow');
  });
});

describe('ProductReviews: the author', () => {
  it('edits their review with the form filled in, and sends it with PUT', async () => {
    const user = userEvent.setup();
    const review = makeReview({ rating: 2, title: 'Meh', comment: 'Slow.' });
    let request: { method: string; path: string; body: unknown } | undefined;
    serve({
      mine: mine(review),
      write: async (req) => {
        request = { method: req.method, path: new URL(req.url).pathname, body: await req.json() };
        const updated = { ...review, rating: 3, title: 'Better after a patch' };
        return { response: jsonResponse(updated), after: mine(updated) };
      },
    });
    renderReviews({ state: loggedIn });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit your review' });
    expect(within(form).getByRole('radio', { name: '2 stars' })).toBeChecked();
    expect(within(form).getByLabelText('Review')).toHaveValue('Slow.');
    await user.click(within(form).getByRole('radio', { name: '3 stars' }));
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'Better after a patch');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your review is updated.')).toBeInTheDocument();
    expect(request).toEqual({
      method: 'PUT',
      path: `${REVIEWS}/${review._id}`,
      body: { rating: 3, title: 'Better after a patch', comment: 'Slow.' },
    });
    expect(screen.getByRole('heading', { name: 'Better after a patch' })).toBeInTheDocument();
  });

  it('deletes their review only once confirmed', async () => {
    const user = userEvent.setup();
    const review = makeReview({ title: 'Regret' });
    const deleted: string[] = [];
    serve({
      mine: mine(review),
      write: async (req) => {
        deleted.push(`${req.method} ${new URL(req.url).pathname}`);
        return { response: jsonResponse({ message: 'Review deleted' }), after: A_BUYER };
      },
    });
    renderReviews({ state: loggedIn });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: DELETE_QUESTION });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Your review is deleted.')).toBeInTheDocument();
    expect(deleted).toEqual([`DELETE ${REVIEWS}/${review._id}`]);
    expect(screen.queryByRole('heading', { name: 'Your review' })).not.toBeInTheDocument();
  });

  it('tells the author when the shop has hidden their review', async () => {
    serve({ mine: mine(makeReview({ hidden: true })) });
    renderReviews({ state: loggedIn });
    expect(
      await screen.findByText('The shop has hidden this review: only you can see it.'),
    ).toBeInTheDocument();
  });
});
