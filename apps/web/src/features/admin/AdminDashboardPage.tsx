import { useId, useState, type ComponentType } from 'react';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { AddProductSection } from './AddProductSection';
import { ManageGiftCardsSection } from './ManageGiftCardsSection';
import { ManageOrdersSection } from './ManageOrdersSection';
import { ManageReviewsSection } from './ManageReviewsSection';
import { ManageUsersSection } from './ManageUsersSection';
import { RemoveProductSection } from './RemoveProductSection';
import { UpdateProductSection } from './UpdateProductSection';

/** Spec section 2: the six sidebar sections, in order (the first is the default), and issue 14's reviews. */
export const ADMIN_SECTIONS = [
  { label: 'Add Product', Component: AddProductSection },
  { label: 'Remove Product', Component: RemoveProductSection },
  { label: 'Update Product', Component: UpdateProductSection },
  { label: 'Manage Orders', Component: ManageOrdersSection },
  { label: 'Manage Gift Cards', Component: ManageGiftCardsSection },
  { label: 'Manage Users', Component: ManageUsersSection },
  // Issue 14: after the spec's six.
  { label: 'Manage Reviews', Component: ManageReviewsSection },
] as const satisfies readonly { label: string; Component: ComponentType }[];

type SectionLabel = (typeof ADMIN_SECTIONS)[number]['label'];

/**
 * /admin/dashboard (spec section 2, admins only; RequireAdmin guards the route). A sidebar picks one of
 * six sections; on small screens the menu opens and closes with a toggle; the content area scrolls on
 * its own. The page is a lazy route chunk, so shoppers never download any of it.
 */
export default function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const [active, setActive] = useState<SectionLabel>('Add Product');
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const current = ADMIN_SECTIONS.find((s) => s.label === active) ?? ADMIN_SECTIONS[0];
  const Section = current.Component;

  return (
    <section className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row">
      <aside className="md:w-60 md:shrink-0">
        <h1 className="pixel-heading mb-4 text-lg text-lime-300">Admin Dashboard</h1>
        <button
          type="button"
          className="btn btn-secondary mb-3 w-full md:hidden"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close Menu' : 'Open Menu'}
        </button>
        <nav id={navId} aria-label="Admin sections" className={`${menuOpen ? 'block' : 'hidden'} md:block`}>
          <ul className="flex flex-col gap-2">
            {ADMIN_SECTIONS.map(({ label }) => (
              <li key={label}>
                <button
                  type="button"
                  aria-current={label === active ? 'page' : undefined}
                  className={`btn w-full justify-start text-left ${
                    label === active ? 'btn-primary' : 'btn-secondary'
                  }`}
                  onClick={() => {
                    setActive(label);
                    setMenuOpen(false);
                  }}
                >
                  {label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div
        className="min-w-0 flex-1 border-4 border-zinc-800 bg-zinc-900/60 p-4 sm:p-6 md:max-h-[calc(100vh-8rem)] md:overflow-y-auto"
        role="region"
        aria-label={current.label}
      >
        <h2 className="pixel-heading mb-6 text-base text-cyan-300 sm:text-lg">{current.label}</h2>
        <Section />
      </div>
    </section>
  );
}
