/** Static contact details shown on /contact (placeholders the shop owner edits). */
export const SHOP_EMAIL = 'hello@pixelvault.shop';

export const SHOP_ADDRESS = ['Pixel Vault', '1215 K Street', 'Sacramento, CA 95814'] as const;
