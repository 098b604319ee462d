import { useEffect, useState } from 'react';
import { HEADER_HIDE_SCROLL_PX } from '@pixel-vault/shared';

/** Ignore tiny scroll jitters (trackpads, momentum) so the header does not flicker. */
const MIN_DELTA_PX = 4;

/**
 * Spec section 2: the header hides when scrolling down past 100 px and shows when scrolling up.
 * A passive listener, read once per animation frame.
 */
export function useHideOnScroll(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let frame = 0;
    function update() {
      frame = 0;
      const y = window.scrollY;
      if (y <= HEADER_HIDE_SCROLL_PX) setHidden(false);
      else if (y - lastY >= MIN_DELTA_PX) setHidden(true);
      else if (lastY - y >= MIN_DELTA_PX) setHidden(false);
      else return;
      lastY = y;
    }
    function onScroll() {
      if (!frame) frame = requestAnimationFrame(update);
    }
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return hidden;
}
