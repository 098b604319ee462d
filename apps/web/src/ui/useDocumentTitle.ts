import { useEffect } from 'react';

export const SITE_NAME = 'Pixel Vault';
export const SITE_TITLE = 'Pixel Vault — retro games, board games, puzzles & consoles';

/** Sets the tab title to "{title} — Pixel Vault" (or the site title when no title is given). */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} — ${SITE_NAME}` : SITE_TITLE;
  }, [title]);
}
