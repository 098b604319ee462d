import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectSessionEnded } from './authSlice';
import { redirectQuery } from './redirect';

/**
 * Issue 30: once the server has ended the session (an admin deleted or changed the account, or it ran
 * out), the data layer logs out and the person is taken to /login, which says why, from whatever page
 * made the refused call (the pages that need a login would send them there anyway). Logging in again
 * brings them back to that page.
 */
export function useSessionEndRedirect() {
  const ended = useAppSelector(selectSessionEnded);
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!ended || pathname === '/login') return;
    void navigate(`/login${redirectQuery(pathname + search)}`, { replace: true });
  }, [ended, pathname, search, navigate]);
}
