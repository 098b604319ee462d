import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import { makeStore, type RootState } from '../app/store';

/** Renders a component with a fresh store (optionally preloaded) inside a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, route = '/' }: { preloadedState?: Partial<RootState>; route?: string } = {},
) {
  const store = makeStore(preloadedState);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper }) };
}
