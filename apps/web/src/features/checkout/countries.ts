import { COUNTRY_CODES, DEFAULT_SHOP_COUNTRY } from '@pixel-vault/shared';

export interface Country {
  code: string;
  /** The English name the platform gives it ("United States"): what the spec's `country` carries. */
  name: string;
}

let all: readonly Country[] | undefined;

/**
 * Every ISO 3166-1 country by its English name, A to Z (issue 30). Built on first use, not at import:
 * the list costs nothing to a page that never shows it, here or when rendered on the server.
 */
export function countries(): readonly Country[] {
  if (!all) {
    const names = new Intl.DisplayNames('en', { type: 'region', fallback: 'code' });
    const collator = new Intl.Collator('en');
    all = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
  }
  return all;
}

/**
 * The shop's country (SHOP_COUNTRY, from GET /api/config), then all the others A to Z. An unknown
 * code (an older server) counts as the default, US.
 */
export function countriesFor(shopCountry: string | undefined): { shop: Country; others: Country[] } {
  const list = countries();
  const shop = list.find((c) => c.code === shopCountry) ?? list.find((c) => c.code === DEFAULT_SHOP_COUNTRY)!;
  return { shop, others: list.filter((c) => c !== shop) };
}
