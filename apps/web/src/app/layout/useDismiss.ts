import { useEffect, useRef, type RefObject } from 'react';

/** Closes a menu on Escape or on a pointer press outside `ref` while it is open. */
export function useDismiss(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  close: (reason: 'escape' | 'outside') => void,
) {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent | MouseEvent) {
      if (ref.current && event.target instanceof Node && !ref.current.contains(event.target)) {
        closeRef.current('outside');
      }
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') closeRef.current('escape');
    }
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, ref]);
}
