import { Link } from 'react-router';
import { useDocumentTitle } from './useDocumentTitle';

/** A screen whose feature is built in a later issue: says so honestly instead of showing nothing. */
export function PlaceholderPage({
  title,
  message = 'This page is being set up — check back soon.',
  backTo = '/',
  backLabel = 'Back to the shop',
}: {
  title: string;
  message?: string;
  backTo?: string;
  backLabel?: string;
}) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">{title}</h1>
      <p className="mb-8 text-zinc-300">{message}</p>
      <Link to={backTo} className="btn btn-secondary">
        {backLabel}
      </Link>
    </section>
  );
}
