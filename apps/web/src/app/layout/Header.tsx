import { Suspense, lazy, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { NAV_CATEGORIES, navSlug } from '@pixel-vault/shared';
import { useAppDispatch, useAppSelector } from '../hooks';
import { openCart } from '../../features/cart/cartPanelSlice';
import { selectCartCount } from '../cartSlice';
import { Logo } from '../../ui/Logo';
import { PixelIcon } from '../../ui/PixelIcon';
import { useDismiss } from './useDismiss';
import { useHideOnScroll } from './useHideOnScroll';
import { loadCartPanel } from './lazyCartPanel';
import { useSessionEndRedirect } from '../../features/account/useSessionEndRedirect';
import { SearchBox } from '../../features/search/SearchBox';

/** Spec section 2: each header label goes to /shop/{label lowercased, spaces to hyphens}. */
const NAV_LINKS = NAV_CATEGORIES.map((label) => ({ label, to: `/shop/${navSlug(label)}` }));

function navClass({ isActive }: { isActive: boolean }) {
  return `nav-link ${isActive ? 'text-lime-300' : 'text-zinc-200 hover:text-lime-200'}`;
}

function CartIcon() {
  return (
    <PixelIcon d="M0 2h3v1H0zM3 3h1v2H3zM4 5h11v1H4zM4 6h1v3H4zM14 6h1v1h-1zM13 7h1v2h-1zM5 9h9v1H5zM5 10h1v1H5zM5 11h9v1H5zM5 13h2v2H5zM11 13h2v2h-2z" />
  );
}

const AccountMenu = lazy(() => import('./AccountMenu'));

/** Classes of the account button, shared with its stand-in while the menu's code loads. */
export const ACCOUNT_BUTTON_CLASS =
  'flex min-w-0 max-w-[10rem] items-center gap-2 px-2 py-2 font-semibold text-zinc-100 hover:text-lime-200 sm:max-w-[14rem]';

/**
 * What the account button shows (issue 30): the first name, or its initial where that does not fit
 * (AccountMenu measures), never a cut word. The full name is always the button's accessible name.
 */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] || name;
}

/**
 * Site header (spec section 2): brand, categories, the shop's search (issue 33), account menu or Login,
 * cart button with badge.
 */
export function Header() {
  // A session the server ended (issue 30) goes to /login, which says why, from any page.
  useSessionEndRedirect();
  const dispatch = useAppDispatch();
  const userInfo = useAppSelector((state) => state.auth.userInfo);
  const count = useAppSelector(selectCartCount);
  const scrolledAway = useHideOnScroll();
  const [navOpen, setNavOpen] = useState(false);
  const [focusInside, setFocusInside] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const navButtonRef = useRef<HTMLButtonElement>(null);
  const navId = useId();
  const location = useLocation();

  // Close the phone menu whenever the page changes (a link in it was followed).
  const [navPath, setNavPath] = useState(location.pathname);
  if (navPath !== location.pathname) {
    setNavPath(location.pathname);
    setNavOpen(false);
  }

  useDismiss(headerRef, navOpen, (reason) => {
    setNavOpen(false);
    if (reason === 'escape') navButtonRef.current?.focus();
  });

  // Keep the header on screen while it is being used with the keyboard or its phone menu is open.
  const hidden = scrolledAway && !navOpen && !focusInside;
  const cartLabel = `Open cart, ${count} ${count === 1 ? 'item' : 'items'}`;

  return (
    <header
      ref={headerRef}
      className={`sticky top-0 z-40 border-b-4 border-lime-400 bg-zinc-950/95 backdrop-blur transition-transform duration-300 motion-reduce:transition-none ${
        hidden ? '-translate-y-full' : 'translate-y-0'
      }`}
      onFocus={() => setFocusInside(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusInside(false);
      }}
    >
      {/* relative: on a phone the search box opens over this row. */}
      <div className="relative mx-auto flex max-w-6xl items-center gap-2 px-3 py-3 sm:gap-4 sm:px-4 md:gap-2 lg:gap-4">
        <button
          ref={navButtonRef}
          type="button"
          className="icon-btn md:hidden"
          aria-expanded={navOpen}
          aria-controls={navId}
          aria-label="Browse categories"
          onClick={() => setNavOpen((o) => !o)}
        >
          <svg viewBox="0 0 16 16" className="h-6 w-6" shapeRendering="crispEdges" aria-hidden="true">
            <path
              fill="currentColor"
              d={
                navOpen
                  ? 'M3 3h2v2H3zM5 5h2v2H5zM7 7h2v2H7zM9 5h2v2H9zM11 3h2v2h-2zM5 9h2v2H5zM3 11h2v2H3zM9 9h2v2H9zM11 11h2v2h-2z'
                  : 'M2 3h12v2H2zM2 7h12v2H2zM2 11h12v2H2z'
              }
            />
          </svg>
        </button>

        <Link to="/" className="brand flex shrink-0 items-center gap-2" aria-label="Pixel Vault home">
          <Logo className="h-8 w-8" />
          <span className="pixel-heading hidden text-xs text-lime-300 min-[400px]:inline sm:text-base md:text-sm lg:text-base">
            Pixel Vault
          </span>
        </Link>

        <nav aria-label="Categories" className="hidden flex-1 justify-center md:flex">
          <ul className="flex items-center gap-1 lg:gap-3">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className={navClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        {/* min-w-0: on a phone a long name gives way (to its initial), never the page's width. */}
        <div className="ml-auto flex min-w-0 items-center sm:gap-3 md:ml-0 md:gap-1 lg:gap-3">
          <SearchBox />
          {userInfo ? (
            // Only a logged-in visitor needs the menu's code: it loads when they come back.
            <Suspense
              fallback={
                <span className={ACCOUNT_BUTTON_CLASS}>
                  <span className="truncate">{firstNameOf(userInfo.name)}</span>
                </span>
              }
            >
              <AccountMenu name={userInfo.name} isAdmin={userInfo.isAdmin} />
            </Suspense>
          ) : (
            <NavLink to="/login" className={navClass}>
              Login
            </NavLink>
          )}
          <button
            id="cart-button"
            type="button"
            className="icon-btn relative"
            aria-label={cartLabel}
            onPointerEnter={() => void loadCartPanel()}
            onFocus={() => void loadCartPanel()}
            onClick={() => dispatch(openCart())}
          >
            <CartIcon />
            {count > 0 && (
              <span
                aria-hidden="true"
                data-testid="cart-badge"
                className="absolute -top-1 -right-1 min-w-5 bg-fuchsia-500 px-1 text-center text-xs leading-5 font-bold text-white"
              >
                {count > 99 ? '99+' : count}
              </span>
            )}
          </button>
        </div>
      </div>

      {navOpen && (
        <nav id={navId} aria-label="Categories" className="border-t-2 border-zinc-800 md:hidden">
          <ul className="mx-auto flex max-w-6xl flex-col px-3 py-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className={(s) => `${navClass(s)} block py-3`}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}
