import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { SaleEnds, saleEndText } from './SaleEnds';

const ENDS = '2026-11-30T23:00:00.000Z';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('when a sale ends (issue 32)', () => {
  it('is the weekday, date and time; in UTC, named, when the time zone is not the shopper’s', () => {
    expect(saleEndText(ENDS, 'UTC')).toBe('Mon, Nov 30, 11:00 PM UTC');
    expect(saleEndText(ENDS)).toMatch(/^\w{3}, (Nov 30|Dec 1), \d{1,2}:00 [AP]M$/);
    expect(saleEndText('not a date')).toBe('');
  });

  it("is said in UTC in the server's page, hydrates without a mismatch, then in the shopper's time zone", async () => {
    const html = renderToString(<SaleEnds iso={ENDS} />);
    expect(html.replace(/<!-- -->/g, '')).toMatch(
      /Sale ends <time datetime="2026-11-30T23:00:00.000Z">Mon, Nov 30, 11:00 PM UTC<\/time>/i,
    );

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error');
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, <SaleEnds iso={ENDS} />, { onRecoverableError: recoverable });
    });
    expect(screen.getByText(/^Sale ends/)).toHaveTextContent(`Sale ends ${saleEndText(ENDS)}`);
    expect(screen.getByText(/^Sale ends/)).not.toHaveTextContent('UTC');
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });
});
