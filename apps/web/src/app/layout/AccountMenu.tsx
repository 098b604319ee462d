import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { logout } from '../../features/account/authSlice';
import { useAppDispatch } from '../hooks';
import { ACCOUNT_BUTTON_CLASS } from './Header';
import { useDismiss } from './useDismiss';

/**
 * The logged-in visitor's menu in the header: My Account (issue 11), My Orders, Admin Portal (admins),
 * Sign Out.
 */
export default function AccountMenu({ name, isAdmin }: { name: string; isAdmin: boolean }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
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
    // The data layer forgets that user's cached answers itself (app/api.ts, resetOnLogout).
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
        onClick={() => setOpen((o) => !o)}
        className={ACCOUNT_BUTTON_CLASS}
      >
        <span className="truncate">{name}</span>
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
