import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import AdminDashboardPage from './AdminDashboardPage';
import { adminState } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AdminDashboardPage with REQUIRE_ADMIN_2FA (issue 36)', () => {
  it('shows the refusal and links to My Account to turn two-factor sign-in on', async () => {
    stubFetch(() =>
      jsonResponse({ message: ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, code: 'TWO_FACTOR_REQUIRED' }, 403),
    );
    renderWithProviders(<AdminDashboardPage />, { preloadedState: adminState });
    const region = screen.getByRole('region', { name: 'Overview' });
    const link = await within(region).findByRole('link', { name: 'Turn it on in My Account' });
    expect(link).toHaveAttribute('href', '/account');
    expect(
      within(region)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toContain(`Error: ${ADMIN_TWO_FACTOR_REQUIRED_MESSAGE}`);
  });

  it('shows no notice for other refusals', async () => {
    stubFetch(() => jsonResponse({ message: 'Something went wrong' }, 500));
    renderWithProviders(<AdminDashboardPage />, { preloadedState: adminState });
    expect(await screen.findAllByRole('alert')).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Turn it on in My Account' })).not.toBeInTheDocument();
  });
});
