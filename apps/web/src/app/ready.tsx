import { createContext, useContext, useEffect } from 'react';

/** Called once the routed page has hydrated (or been drawn): main.tsx's hand-over of early taps. */
export const PageReadyContext = createContext<() => void>(() => {});

/**
 * Marks the document once the routed page reacts (`<html data-ready>`, which the tests wait for) and
 * tells main.tsx. It sits beside the page inside the layout's Suspense boundary: React hydrates a
 * boundary's content after the shell, in a pass of its own, so an effect in the shell ran while the
 * page's fields and buttons were not hydrated yet (issue 29: an edit handed over then was dropped).
 */
export function PageReady() {
  const onReady = useContext(PageReadyContext);
  useEffect(() => {
    document.documentElement.dataset.ready = '';
    onReady();
  }, [onReady]);
  return null;
}
