import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));
}

export interface ModalProps {
  /** Called on Escape, on a click on the overlay, and by the content's own close buttons. */
  onClose: () => void;
  /** Id of the element that names the dialog (its title). */
  labelledBy: string;
  /** Id of the element that says more (read after the title by screen readers). */
  describedBy?: string;
  children: ReactNode;
  /** 'side' slides in from the right edge (the cart); 'center' is a classic dialog. */
  variant?: 'center' | 'side';
  className?: string;
}

/**
 * Accessible dialog, mounted while open: focus moves inside and is trapped there, Escape and an
 * overlay click close it, the page behind does not scroll, and focus goes back where it was.
 */
export function Modal({
  onClose,
  labelledBy,
  describedBy,
  children,
  variant = 'center',
  className = '',
}: ModalProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (focusables(panel)[0] ?? panel).focus();
    const bodyOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    function onKeyDown(event: KeyboardEvent) {
      if (!panel) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(panel);
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (!first || !last) {
        event.preventDefault();
        panel.focus();
      } else if (event.shiftKey && (active === first || !panel.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = bodyOverflow;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, []);

  const side = variant === 'side';
  return createPortal(
    <div className="fixed inset-0 z-50">
      <div className="modal-overlay absolute inset-0 bg-black/70" onClick={onClose} aria-hidden="true" />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={
          side
            ? `modal-side absolute inset-y-0 right-0 flex w-full max-w-md flex-col border-l-4 border-lime-400 bg-zinc-950 shadow-2xl outline-none ${className}`
            : `modal-center absolute top-1/2 left-1/2 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto border-4 border-lime-400 bg-zinc-950 p-6 shadow-2xl outline-none ${className}`
        }
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
