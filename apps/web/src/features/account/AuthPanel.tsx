import type { ReactNode } from 'react';

/** The framed panel both account pages sit in. */
export function AuthPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="px-4">
      <section
        aria-labelledby="auth-title"
        className="mx-auto my-10 w-full max-w-md border-2 border-fuchsia-500 bg-zinc-900 p-6 shadow-[6px_6px_0_0_#22d3ee] sm:p-8"
      >
        <h1 id="auth-title" className="pixel-heading mb-6 text-center text-xl text-lime-400 sm:text-2xl">
          {title}
        </h1>
        {children}
      </section>
    </div>
  );
}

/** `.btn` and `.btn-primary` are the app's arcade buttons (src/index.css). */
export const submitButtonClass = 'btn btn-primary mt-2 w-full';

export const textLinkClass =
  'font-semibold text-cyan-300 underline underline-offset-4 hover:text-fuchsia-300';
