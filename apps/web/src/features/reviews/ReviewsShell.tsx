import type { ReactNode } from 'react';

/**
 * The product page's reviews block (issue 14): its heading, and room for what loads after hydration.
 * The server renders it with `ReviewsLoading` inside; the reviews (code and data) arrive in the browser.
 * The block keeps at least the skeleton's height, so that nothing on the page moves when they arrive
 * (issue 10: cumulative layout shift 0).
 */
export function ReviewsShell({ children }: { children: ReactNode }) {
  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mt-12 min-h-[30rem] scroll-mt-4">
      <h2 id="reviews-title" className="pixel-heading mb-6 text-base text-cyan-300 sm:text-lg">
        Reviews
      </h2>
      {children}
    </section>
  );
}

/** Where the summary and the first reviews will be, while they load. */
export function ReviewsLoading() {
  return (
    <div role="status" aria-label="Loading reviews">
      <div aria-hidden="true" className="flex flex-col gap-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
          <div className="h-24 w-40 bg-zinc-800/60" />
          <div className="h-28 flex-1 bg-zinc-800/60" />
        </div>
        <div className="h-12 bg-zinc-800/60" />
        <div className="h-32 animate-pulse border-4 border-zinc-800 bg-zinc-900 motion-reduce:animate-none" />
        <div className="h-32 animate-pulse border-4 border-zinc-800 bg-zinc-900 motion-reduce:animate-none" />
      </div>
    </div>
  );
}
