import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAppSelector } from '../hooks';
import { selectIsCartOpen } from '../../features/cart/cartPanelSlice';
import { Spinner } from '../../ui/Spinner';
import { PageReady } from '../ready';
import { ErrorBoundary } from './ErrorBoundary';
import { Footer } from './Footer';
import { Header } from './Header';
import { LazyCartPanel, loadCartPanel } from './lazyCartPanel';
import { VerifyBannerSlot } from './VerifyBannerSlot';

/**
 * Every navigation starts at the top of the new page. The page the app starts on is not one: a shopper
 * may have scrolled a rendered page before it hydrated, and their next tap aims at what they see there
 * (issue 29: pulled back to the top, it landed on nothing).
 */
function ScrollToTop() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** Header and footer on every page (spec section 2), the routed page between them, the cart panel. */
export function Layout() {
  const { pathname } = useLocation();
  const cartOpen = useAppSelector(selectIsCartOpen);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => void loadCartPanel());
  }, []);
  return (
    <div className="flex min-h-screen flex-col">
      <ScrollToTop />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <VerifyBannerSlot />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<Spinner label="Loading page" />}>
            <Outlet />
            <PageReady />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      {cartOpen && (
        <Suspense fallback={null}>
          <LazyCartPanel />
        </Suspense>
      )}
    </div>
  );
}
