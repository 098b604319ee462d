/** Static contact details shown on /contact (placeholders the shop owner edits). */
export const SHOP_EMAIL = 'hello@pixelvault.shop';

export const SHOP_ADDRESS = ['Pixel Vault', '1215 K Street', 'Sacramento, CA 95814'] as const;

export interface SocialLink {
  /** Accessible name of the link, e.g. "Pixel Vault on YouTube". */
  label: string;
  /** The short tag shown in the pixel badge. */
  short: string;
  href: string;
}

export const SOCIAL_LINKS: readonly SocialLink[] = [
  { label: 'Pixel Vault on Facebook', short: 'FB', href: 'https://www.facebook.com/' },
  { label: 'Pixel Vault on Instagram', short: 'IG', href: 'https://www.instagram.com/' },
  { label: 'Pixel Vault on X', short: 'X', href: 'https://x.com/' },
  { label: 'Pixel Vault on YouTube', short: 'YT', href: 'https://www.youtube.com/' },
  { label: 'Pixel Vault on Twitch', short: 'TV', href: 'https://www.twitch.tv/' },
];
