import { lazy, useLayoutEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { HomePage } from '../features/catalog/HomePage';
import { Spinner } from '../ui/Spinner';
import { SITE_NAME } from '../ui/useDocumentTitle';
import { selectSessionRestored } from './sessionSlice';
import { useAppSelector } from './hooks';
import { Layout } from './layout/Layout';

// Home is in the first download; every other screen loads when it is visited. The catalogue pages come
// rendered by the server and are hydrated once their code (and the data layer) has arrived.
const CategoryRoute = lazyPage(() => import('../features/catalog/CategoryPage').then((m) => m.CategoryRoute));
const ProductPage = lazyPage(() => import('./pages/ProductPage').then((m) => m.ProductPage));
// Issue 33: the shop-wide search, rendered by the server too.
const SearchPage = lazyPage(() => import('../features/catalog/SearchPage').then((m) => m.SearchPage));

/**
 * A page whose code loads on demand, and which can be loaded ahead: once loaded it renders at once, with
 * no Suspense pass. The browser loads the page it is about to hydrate first, so that hydration is one
 * pass and the page reacts as soon as it is hydrated.
 */
function lazyPage(load: () => Promise<ComponentType>) {
  let Loaded: ComponentType | undefined;
  const preload = () =>
    load().then((component) => {
      Loaded = component;
      return component;
    });
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  return Object.assign(Page, { preload });
}

const CartPage = lazyPage(() => import('../features/cart/CartPage').then((m) => m.default));
const PlaceOrderPage = lazyPage(() => import('../features/checkout/PlaceOrderPage').then((m) => m.default));
const OrderConfirmationPage = lazyPage(() =>
  import('../features/orders/OrderConfirmationPage').then((m) => m.default),
);
const OrderHistoryPage = lazyPage(() => import('../features/orders/OrderHistoryPage').then((m) => m.default));
const OrderDetailPage = lazyPage(() => import('./pages/OrderDetailPage').then((m) => m.default));
const AdminDashboardPage = lazyPage(() =>
  import('../features/admin/AdminDashboardPage').then((m) => m.default),
);
const AdminOrderPage = lazyPage(() => import('./pages/AdminOrderPage').then((m) => m.default));
const LoginPage = lazyPage(() => import('../features/account/LoginPage').then((m) => m.default));
const RegisterPage = lazyPage(() => import('../features/account/RegisterPage').then((m) => m.default));
const ForgotPasswordPage = lazyPage(() =>
  import('../features/account/ForgotPasswordPage').then((m) => m.default),
);
const ResetPasswordPage = lazyPage(() =>
  import('../features/account/ResetPasswordPage').then((m) => m.default),
);
// Issue 36: the link of a verification mail.
const VerifyEmailPage = lazyPage(() => import('../features/account/VerifyEmailPage').then((m) => m.default));
const AccountPage = lazyPage(() => import('../features/account/AccountPage').then((m) => m.default));
const WishlistPage = lazyPage(() => import('./pages/WishlistPage').then((m) => m.default));
const AlertConfirmPage = lazyPage(() => import('../features/alerts/AlertConfirmPage').then((m) => m.default));
const AlertUnsubscribePage = lazyPage(() =>
  import('../features/alerts/AlertUnsubscribePage').then((m) => m.default),
);
// Issue 35: trade-ins.
const SellPage = lazyPage(() => import('../features/tradeins/SellPage').then((m) => m.default));
const MyTradeInsPage = lazyPage(() => import('../features/tradeins/MyTradeInsPage').then((m) => m.default));
const TradeInDetailPage = lazyPage(() => import('./pages/TradeInDetailPage').then((m) => m.default));
const ContactPage = lazyPage(() => import('../features/contact/ContactPage').then((m) => m.default));
const CreditsPage = lazyPage(() => import('../features/about/CreditsPage').then((m) => m.default));
const AboutPage = lazyPage(() => import('../features/about/AboutPage').then((m) => m.default));

/** The pages that load on demand, by the first part of their path (the catalogue's and the admin's apart). */
const BY_FIRST_PART: Record<string, { preload(): Promise<unknown> } | undefined> = {
  product: ProductPage,
  search: SearchPage,
  cart: CartPage,
  'place-order': PlaceOrderPage,
  'order-confirmation': OrderConfirmationPage,
  'order-history': OrderHistoryPage,
  order: OrderDetailPage,
  login: LoginPage,
  register: RegisterPage,
  'forgot-password': ForgotPasswordPage,
  'reset-password': ResetPasswordPage,
  'verify-email': VerifyEmailPage,
  account: AccountPage,
  wishlist: WishlistPage,
  sell: SellPage,
  contact: ContactPage,
  credits: CreditsPage,
  about: AboutPage,
};

/**
 * Loads the code of the page at `pathname`, if it is one that loads on demand: a page the server rendered
 * before it is hydrated (one pass), any other before it is first drawn (no "Loading page" first, and no
 * footer pushed down when it arrives: a layout shift in issue 29's Lighthouse run of /about).
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const [, first = '', second, third] = pathname.split('/');
  if (first === 'shop') {
    if (second === 'home') return Promise.resolve();
    return (third === 'product' ? ProductPage : CategoryRoute).preload();
  }
  if (first === 'tradeins') return (second ? TradeInDetailPage : MyTradeInsPage).preload();
  if (first === 'admin') return (second === 'order' ? AdminOrderPage : AdminDashboardPage).preload();
  return BY_FIRST_PART[first]?.preload() ?? Promise.resolve();
}

/**
 * A default tab title for a route. It is set in a layout effect, so a page that sets a more precise
 * title itself (in a normal effect, e.g. with useDocumentTitle) wins.
 */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useLayoutEffect(() => {
    document.title = `${title} — ${SITE_NAME}`;
  }, [title]);
  return children;
}

/**
 * Spec sections 5 and 6: checkout, order and account (issue 11) pages need a logged-in user, else /login.
 * Who is logged in is known once the browser's stored state is read back (app/persist.ts); until then, a
 * spinner.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const restored = useAppSelector(selectSessionRestored);
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const ended = useAppSelector((state) => state.auth.sessionEnded != null);
  const { pathname } = useLocation();
  // Signed out here (Sign Out goes home): the login page would be a detour. Its redirect raced the
  // menu's own navigation to / and won (issue 30's two-accounts journey, signing out at checkout).
  const [seenLoggedIn, setSeenLoggedIn] = useState(false);
  if (loggedIn && !seenLoggedIn) setSeenLoggedIn(true);
  if (!restored) return <Spinner label="Loading" />;
  if (!loggedIn && seenLoggedIn && !ended) return <Navigate to="/" replace />;
  if (!loggedIn) return <Navigate to={`/login?redirect=${encodeURIComponent(pathname)}`} replace />;
  return children;
}

/** Spec section 6: non-admins are redirected from the dashboard to /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const restored = useAppSelector(selectSessionRestored);
  const isAdmin = useAppSelector((state) => state.auth.userInfo?.isAdmin === true);
  if (!restored) return <Spinner label="Loading" />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return children;
}

/** Every route of spec section 2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="shop/home" element={<HomePage />} />
        <Route path="shop/:category" element={<CategoryRoute />} />
        <Route path="shop/:category/product/:id" element={<ProductPage />} />
        {/* Issue 14: a product by its id alone ("Review this product" in an order); it moves to its address. */}
        <Route path="product/:id" element={<ProductPage />} />
        <Route path="search" element={<SearchPage />} />
        <Route path="cart" element={<CartPage />} />
        <Route
          path="place-order"
          element={
            <RequireAuth>
              <PlaceOrderPage />
            </RequireAuth>
          }
        />
        <Route
          path="order-confirmation/:orderId"
          element={
            <RequireAuth>
              <OrderConfirmationPage />
            </RequireAuth>
          }
        />
        <Route
          path="order-history"
          element={
            <RequireAuth>
              <OrderHistoryPage />
            </RequireAuth>
          }
        />
        <Route
          path="order/:orderId"
          element={
            <RequireAuth>
              <OrderDetailPage />
            </RequireAuth>
          }
        />
        <Route
          path="admin/dashboard"
          element={
            <RequireAdmin>
              <AdminDashboardPage />
            </RequireAdmin>
          }
        />
        <Route
          path="admin/order/:orderId"
          element={
            <RequireAdmin>
              <AdminOrderPage />
            </RequireAdmin>
          }
        />
        <Route
          path="login"
          element={
            <Titled title="Login">
              <LoginPage />
            </Titled>
          }
        />
        <Route
          path="register"
          element={
            <Titled title="Register">
              <RegisterPage />
            </Titled>
          }
        />
        {/* Issue 11. These pages set their own tab title: no Titled wrapper, whose bytes the home page's
            first download would carry (issue 10's budget). */}
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password/:token" element={<ResetPasswordPage />} />
        {/* Issue 36: anyone may open it (the link proves the mailbox, not the session). */}
        <Route path="verify-email/:token" element={<VerifyEmailPage />} />
        <Route
          path="account"
          element={
            <RequireAuth>
              <AccountPage />
            </RequireAuth>
          }
        />
        <Route
          path="wishlist"
          element={
            <RequireAuth>
              <WishlistPage />
            </RequireAuth>
          }
        />
        {/* Issue 35: anyone may read the buy list; the quote asks for a login there. */}
        <Route path="sell" element={<SellPage />} />
        <Route
          path="tradeins"
          element={
            <RequireAuth>
              <MyTradeInsPage />
            </RequireAuth>
          }
        />
        <Route
          path="tradeins/:id"
          element={
            <RequireAuth>
              <TradeInDetailPage />
            </RequireAuth>
          }
        />
        {/* Issue 34: the links of the alert mails; anyone may open them. */}
        <Route path="alerts/confirm/:token" element={<AlertConfirmPage />} />
        <Route path="alerts/unsubscribe/:token" element={<AlertUnsubscribePage />} />
        <Route
          path="contact"
          element={
            <Titled title="Contact Us">
              <ContactPage />
            </Titled>
          }
        />
        <Route
          path="credits"
          element={
            <Titled title="Project Credits">
              <CreditsPage />
            </Titled>
          }
        />
        <Route
          path="about"
          element={
            <Titled title="Meet the Team">
              <AboutPage />
            </Titled>
          }
        />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
