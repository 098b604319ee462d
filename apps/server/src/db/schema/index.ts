// The whole data model in one place, for Drizzle's typed client and drizzle-kit.
export * from './users.js';
export * from './products.js';
export * from './mail.js';
export * from './contact.js';
export * from './orders.js';
export * from './giftcards.js';
export * from './audit.js';
export * from './limits.js';
export * from './promotions.js';
export * from './cart.js';
export * from './wishlist.js';
export * from './alerts.js';
export * from './tradeins.js';
export * from './sessions.js';
export * from './twofactor.js';
export * from './webhooks.js';
