import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import { logout } from '../../features/account/authSlice';
import { useAppDispatch } from '../hooks';
import { ACCOUNT_BUTTON_CLASS, firstNameOf } from './Header';
import { useDismiss } from './useDismiss';

/** The first letter (a whole character, accents and emoji included), as a capital. */
export function initialOf(word: string): string {
  const [first] = new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(word);
  return (first?.segment ?? word).toLocaleUpperCase();
}

/**
 * Whether the text in `ref` shows whole (not cut with an ellipsis). Measured before the browser paints,
 * so a name that does not fit is never seen cut; again whenever the element is squeezed (a font that
 * arrives late widens the brand) and whenever the window's size changes (room may have grown back).
 */
function useShowsWhole(ref: RefObject<HTMLElement | null>, text: string): boolean {
  const [whole, setWhole] = useState(true);
  const [measuredFor, setMeasuredFor] = useState(text);
  const [tries, setTries] = useState(0);
  if (measuredFor !== text) {
    setMeasuredFor(text);
    setWhole(true);
  }

  useLayoutEffect(() => {
    const el = ref.current;
    if (whole && el && el.scrollWidth > el.clientWidth) setWhole(false);
  }, [ref, whole, text, tries]);

  useEffect(() => {
    const el = ref.current;
    const retry = () => {
      setWhole(true);
      setTries((n) => n + 1);
    };
    const squeezed =
      el && typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            if (el.scrollWidth > el.clientWidth) setWhole(false);
          })
        : null;
    if (el) squeezed?.observe(el);
    window.addEventListener('resize', retry);
    return () => {
      squeezed?.disconnect();
      window.removeEventListener('resize', retry);
    };
  }, [ref]);

  return whole;
}

/**
 * The logged-in visitor's menu in the header: My Account (issue 11), My Orders, Wishlist (issue 34),
 * My Trade-ins (issue 35), Admin Portal (admins), Sign Out.
 */
export default function AccountMenu({ name, isAdmin }: { name: string; isAdmin: boolean }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const firstName = firstNameOf(name);
  const labelRef = useRef<HTMLSpanElement>(null);
  const showsFirstName = useShowsWhole(labelRef, firstName);
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useDismiss(rootRef, open, (reason) => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  });

  function signOut() {
    setOpen(false);
    // The data layer forgets that user's cached answers itself (app/api.ts, resetOnLogout); the cart
    // forgets their address and payment method (app/cartSlice.ts, issue 30), and its items, which stay
    // in the account for the next login (app/cartSyncLoader.ts, issue 34).
    dispatch(logout());
    void navigate('/');
  }

  return (
    <div ref={rootRef} className="relative flex min-w-0">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        // Issue 30: the full name, whatever part of it shows (the first name, or its initial).
        aria-label={name}
        title={name}
        onClick={() => setOpen((o) => !o)}
        className={ACCOUNT_BUTTON_CLASS}
      >
        <span ref={labelRef} data-testid="account-name" className="truncate">
          {showsFirstName ? firstName : initialOf(firstName)}
        </span>
        <span aria-hidden="true" className={`text-xs transition-transform ${open ? 'rotate-180' : ''}`}>
          ▼
        </span>
      </button>
      {open && (
        <ul
          id={menuId}
          className="absolute right-0 z-50 mt-2 w-48 border-4 border-lime-400 bg-zinc-950 py-1 shadow-xl"
          aria-label="Account"
        >
          <li>
            <Link to="/account" className="menu-item" onClick={() => setOpen(false)}>
              My Account
            </Link>
          </li>
          <li>
            <Link to="/order-history" className="menu-item" onClick={() => setOpen(false)}>
              My Orders
            </Link>
          </li>
          <li>
            <Link to="/wishlist" className="menu-item" onClick={() => setOpen(false)}>
              Wishlist
            </Link>
          </li>
          <li>
            <Link to="/tradeins" className="menu-item" onClick={() => setOpen(false)}>
              My Trade-ins
            </Link>
          </li>
          {isAdmin && (
            <li>
              <Link to="/admin/dashboard" className="menu-item" onClick={() => setOpen(false)}>
                Admin Portal
              </Link>
            </li>
          )}
          <li>
            <button type="button" className="menu-item w-full text-left" onClick={signOut}>
              Sign Out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
