/**
 * Addresses inside the admin dashboard (issue 15). The open section lives in the URL
 * (`/admin/dashboard?section=update-product&product=<id>`), so a link can open a section, and the back
 * button and a reload keep it.
 */
export const DASHBOARD_PATH = '/admin/dashboard';
export const SECTION_PARAM = 'section';
/** Update Product opens its edit form on this product. */
export const PRODUCT_PARAM = 'product';

/** "Manage Gift Cards" -> "manage-gift-cards", "Import & Export" -> "import-export". */
export function sectionSlug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function sectionHref(label: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ [SECTION_PARAM]: sectionSlug(label), ...params });
  return `${DASHBOARD_PATH}?${query.toString()}`;
}

/** The Update Product section, its edit form open on one product. */
export function editProductHref(productId: string): string {
  return sectionHref('Update Product', { [PRODUCT_PARAM]: productId });
}

/** Issue 35: the Trade-ins section opens this trade-in. */
export const TRADE_IN_PARAM = 'tradein';
