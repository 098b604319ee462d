import { escapeHtml } from '@pixel-vault/shared';
import { scriptJson } from '../app/ssrState';
import { SITE_NAME } from '../ui/useDocumentTitle';

/** The `<head>` tags of a page rendered on the server: what search engines and link previews read. */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute URL of the page's one address. */
  canonical: string;
  /** Absolute URL of the image a link preview shows. */
  image?: string;
  type: 'website' | 'product';
  /** schema.org data, written as JSON-LD. */
  jsonLd?: Record<string, unknown>;
  /** Pages that must stay out of search results (a product that does not exist, a search). */
  noindex?: boolean;
  /** Extra Open Graph properties (product:price:amount...). */
  og?: Record<string, string>;
}

/** What a description is cut to: search engines show about this much. */
export const DESCRIPTION_MAX = 160;

/** One line of at most `max` characters, cut at a word with an ellipsis. */
export function summary(text: string, max = DESCRIPTION_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:—-]+$/, '')}…`;
}

export function headTags(head: PageHead): string {
  const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
  const property = (name: string, content: string) =>
    `<meta property="${name}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('description', head.description),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    ...(head.noindex ? [meta('robots', 'noindex')] : []),
    property('og:site_name', SITE_NAME),
    property('og:type', head.type),
    property('og:title', head.title),
    property('og:description', head.description),
    property('og:url', head.canonical),
    ...(head.image ? [property('og:image', head.image)] : []),
    ...Object.entries(head.og ?? {}).map(([name, content]) => property(name, content)),
    meta('twitter:card', head.image ? 'summary_large_image' : 'summary'),
  ];
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  return tags.join('\n    ');
}
