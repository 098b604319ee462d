/** How long a saved file's object URL lives: the browser has read it long before. */
export const REVOKE_AFTER_MS = 10_000;

/**
 * Saves a file (an object URL: an export, the recovery codes) the way a link would: a temporary `<a download>` clicked once. The object URL
 * is revoked a little later (revoked at once, a browser may not have started reading it).
 */
export function saveFile({ url, filename }: { url: string; filename: string }): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
