import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REVIEW_COMMENT_MAX, type ReviewBody } from '@pixel-vault/shared';
import { RatingSummary, histogramLabel } from './RatingSummary';
import { RATING_MISSING, ReviewForm, checkReview } from './ReviewForm';
import { ReviewItem } from './ReviewItem';
import { makeReview, makeSummary } from './test-helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RatingSummary', () => {
  it('gives every row of the 5-to-1 histogram an accessible label with its count', () => {
    render(<RatingSummary summary={{ ...makeSummary({ 1: 1, 2: 0, 3: 2, 4: 5, 5: 12 }), average: 4.3 }} />);
    const rows = within(screen.getByRole('list', { name: 'Ratings breakdown' })).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.sr-only')?.textContent)).toEqual([
      '5 stars: 12 reviews',
      '4 stars: 5 reviews',
      '3 stars: 2 reviews',
      '2 stars: 0 reviews',
      '1 star: 1 review',
    ]);
    // The average (0.1 steps) and the count; the stars say the rating in words.
    expect(screen.getByText('4.3')).toBeInTheDocument();
    expect(screen.getByText('Based on 20 reviews')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
  });

  it('says there are no reviews yet instead of an empty histogram', () => {
    render(<RatingSummary summary={makeSummary({ 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 })} />);
    expect(screen.getByText('No reviews yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('words one star and one review in the singular', () => {
    expect(histogramLabel(1, 1)).toBe('1 star: 1 review');
    expect(histogramLabel(5, 0)).toBe('5 stars: 0 reviews');
  });
});

describe('ReviewItem', () => {
  it('shows author, Verified buyer, stars in words, title, comment with its line breaks, and the date', () => {
    render(
      <ReviewItem
        review={makeReview({
          name: 'Grace',
          rating: 3,
          title: 'Solid port',
          comment: 'Line one\nLine two',
          createdAt: '2024-02-01T12:00:00.000Z',
          updatedAt: '2024-02-01T12:00:00.000Z',
        })}
      />,
    );
    expect(screen.getByText('Grace')).toBeInTheDocument();
    expect(screen.getByText('Verified buyer')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 3 out of 5' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Solid port' })).toBeInTheDocument();
    const comment = screen.getByText(/Line one/);
    expect(comment.textContent).toBe('Line one\nLine two');
    expect(comment).toHaveClass('whitespace-pre-line');
    expect(screen.getByText('Feb 1, 2024')).toHaveAttribute('datetime', '2024-02-01T12:00:00.000Z');
    expect(screen.queryByText('(edited)')).not.toBeInTheDocument();
  });

  it('renders what a customer typed as text, never as markup', () => {
    const { container } = render(
      <ReviewItem
        review={makeReview({
          verifiedBuyer: false,
          name: '<b>Mallory</b>',
          title: '<img src=x onerror=alert(1)>',
          comment: '<script>alert(1)</script>',
        })}
      />,
    );
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(screen.queryByText('Verified buyer')).not.toBeInTheDocument();
  });
});

describe('checkReview', () => {
  it('answers the body to send, trimmed, or one message per field', () => {
    expect(checkReview({ rating: 4, title: ' Great ', comment: ' Fun. ' })).toEqual({
      body: { rating: 4, title: 'Great', comment: 'Fun.' },
    });
    expect(checkReview({ rating: 0, title: '  ', comment: '' })).toEqual({
      errors: { rating: RATING_MISSING, title: 'Title is required', comment: 'Review is required' },
    });
  });
});

function renderForm(onSubmit = vi.fn<(body: ReviewBody) => Promise<unknown>>(async () => undefined)) {
  render(<ReviewForm heading="Write a review" submitLabel="Submit review" onSubmit={onSubmit} />);
  return onSubmit;
}

describe('ReviewForm', () => {
  it('shows every field problem under its field, focuses the first, and sends nothing', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm();
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    expect(screen.getByText(RATING_MISSING)).toBeInTheDocument();
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Review is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    // The problems are tied to their controls and the first one has the focus.
    const oneStar = screen.getByRole('radio', { name: '1 star' });
    expect(oneStar).toHaveFocus();
    expect(oneStar).toHaveAccessibleDescription(RATING_MISSING);
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Title')).toHaveAccessibleDescription('Title is required');

    // Fixing a field takes its message away.
    await user.type(screen.getByLabelText('Title'), 'Great');
    expect(screen.queryByText('Title is required')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Title')).not.toHaveAttribute('aria-invalid');
  });

  it('picks stars with the keyboard, as a radio group', async () => {
    const user = userEvent.setup();
    renderForm();
    const group = screen.getByRole('group', { name: 'Rating' });
    expect(within(group).getAllByRole('radio')).toHaveLength(5);
    await user.tab();
    expect(screen.getByRole('radio', { name: '1 star' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked();
    expect(screen.getByText('4 stars of 5')).toBeInTheDocument();
  });

  it('counts the characters of the review and refuses one over the limit', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm();
    expect(screen.getByText(`0 / ${REVIEW_COMMENT_MAX} characters`)).toBeInTheDocument();
    const comment = screen.getByLabelText('Review');
    await user.type(comment, 'Hello');
    expect(screen.getByText(`5 / ${REVIEW_COMMENT_MAX} characters`)).toBeInTheDocument();
    expect(comment).toHaveAccessibleDescription(`5 / ${REVIEW_COMMENT_MAX} characters`);

    fireEvent.change(comment, { target: { value: 'x'.repeat(REVIEW_COMMENT_MAX + 1) } });
    expect(
      screen.getByText(`${REVIEW_COMMENT_MAX + 1} / ${REVIEW_COMMENT_MAX} characters (1 too many)`),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '5 stars' }));
    await user.type(screen.getByLabelText('Title'), 'Long');
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    expect(screen.getByText(`Review is at most ${REVIEW_COMMENT_MAX} characters`)).toBeInTheDocument();
    expect(comment).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("says 'Submitting...' while the review is sent, then shows the server's refusal in an alert", async () => {
    const user = userEvent.setup();
    let refuse: (error: unknown) => void = () => {};
    const onSubmit = renderForm(
      vi.fn(
        () =>
          new Promise((_resolve, reject) => {
            refuse = reject;
          }),
      ),
    );
    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    await user.type(screen.getByLabelText('Title'), '  Great port ');
    await user.type(screen.getByLabelText('Review'), 'Runs well.');
    await user.click(screen.getByRole('button', { name: 'Submit review' }));

    expect(onSubmit).toHaveBeenCalledWith({ rating: 4, title: 'Great port', comment: 'Runs well.' });
    expect(screen.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    refuse({ status: 403, data: { message: 'Only customers who bought this product can review it.' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only customers who bought this product can review it.',
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit review' })).toBeEnabled());
  });
});
