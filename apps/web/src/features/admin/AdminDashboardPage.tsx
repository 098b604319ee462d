import { useId, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { AddProductSection } from './AddProductSection';
import { SECTION_PARAM, sectionSlug } from './dashboardLinks';
import { ImportExportSection } from './ImportExportSection';
import { ManageGiftCardsSection } from './ManageGiftCardsSection';
import { ManageOrdersSection } from './ManageOrdersSection';
import { ManageReviewsSection } from './ManageReviewsSection';
import { ManageUsersSection } from './ManageUsersSection';
import { OverviewSection } from './OverviewSection';
import { PromotionsSection } from './PromotionsSection';
import { RemoveProductSection } from './RemoveProductSection';
import { TradeInsSection } from './TradeInsSection';
import { TwoFactorRequiredNotice } from './TwoFactorRequiredNotice';
import { UpdateProductSection } from './UpdateProductSection';
import { WebhooksSection } from './WebhooksSection';

/**
 * The sidebar's sections, in order; the first is the default. Issue 15 puts the Overview before spec
 * section 2's six, and the CSV tools after them, issue 14's reviews, issue 32's promotions and issue 35's
 * trade-ins.
 */
export const ADMIN_SECTIONS = [
  { label: 'Overview', Component: OverviewSection },
  { label: 'Add Product', Component: AddProductSection },
  { label: 'Remove Product', Component: RemoveProductSection },
  { label: 'Update Product', Component: UpdateProductSection },
  { label: 'Manage Orders', Component: ManageOrdersSection },
  { label: 'Manage Gift Cards', Component: ManageGiftCardsSection },
  { label: 'Manage Users', Component: ManageUsersSection },
  // Issue 14: after the spec's six.
  { label: 'Manage Reviews', Component: ManageReviewsSection },
  // Issue 32: discount codes.
  { label: 'Promotions', Component: PromotionsSection },
  // Issue 35: the boxes customers send in.
  { label: 'Trade-ins', Component: TradeInsSection },
  // Issue 37: where the shop sends its events.
  { label: 'Webhooks', Component: WebhooksSection },
  { label: 'Import & Export', Component: ImportExportSection },
] as const satisfies readonly { label: string; Component: ComponentType }[];

/**
 * /admin/dashboard (spec section 2, admins only; RequireAdmin guards the route). A sidebar picks a
 * section; on small screens the menu opens and closes with a toggle; the content area scrolls on its
 * own. The open section is the URL's `?section=` (issue 15: links open a section, and the back button
 * and a reload keep it); an unknown one shows the first. The page is a lazy route chunk, so shoppers
 * never download any of it.
 */
export default function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const [params, setParams] = useSearchParams();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const slug = params.get(SECTION_PARAM);
  const current = ADMIN_SECTIONS.find((s) => sectionSlug(s.label) === slug) ?? ADMIN_SECTIONS[0];
  const active = current.label;
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
                    // A new history entry: the back button returns to the section before.
                    setParams({ [SECTION_PARAM]: sectionSlug(label) });
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
        <TwoFactorRequiredNotice />
        <Section />
      </div>
    </section>
  );
}
