/**
 * The refusals a route's schemas and access cannot show (issue 37): conflicts with the current state
 * (409) and rate limits (429) are decided in services, so they are listed here, by route, with the
 * codes a client can act on. A test checks every entry names a registered route, so a renamed route
 * cannot leave its entry behind; a route that starts answering one of these must be added here.
 * Routes may also declare their own in `schema.doc.errors` (apidocs.route-doc.ts).
 */
type Extra = Partial<Record<402 | 409 | 413 | 415 | 429, string>>;

/** lib/passwords.ts: every password hash or check waits in one bounded queue. */
const BUSY = 'too many password checks at once (`BUSY`)';
const BUSY_ALONE = 'Too many password checks at once (`BUSY`)';
const EMAIL_TAKEN = 'That e-mail address has an account (`EMAIL_TAKEN`)';
const GIFT_CARD_TRIES = 'Too many wrong gift card codes from this account or address';
const DISCOUNT_TRIES = 'Too many wrong discount codes from this account or address';
const ORDER_STATE =
  'The order is not in a state that allows it (`ORDER_EXPIRED`, `ORDER_PAID`, `ORDER_CANCELLED`, `ORDER_REFUNDED`, ...)';
const TRADE_IN_STATE = 'The trade-in is not in a state that allows it (e.g. `TRADE_IN_CANCELLED`)';
const MULTIPART: Extra = {
  413: 'A file or the body is too large',
  415: 'Not sent as multipart/form-data (`MULTIPART_REQUIRED`)',
};

export const ROUTE_ERRORS: Readonly<Record<string, Extra>> = {
  'POST /api/users': { 409: EMAIL_TAKEN, 429: `Too many accounts made from this address, or ${BUSY}` },
  'POST /api/users/login': {
    429: `Too many failed logins for this account or from this address, or ${BUSY}`,
  },
  'POST /api/users/password/forgot': { 429: 'Too many reset requests for this e-mail or from this address' },
  'POST /api/users/password/reset': { 429: `Too many failed resets from this address, or ${BUSY}` },
  'PUT /api/users/profile': { 409: EMAIL_TAKEN, 429: `A new e-mail or password while ${BUSY}` },
  'POST /api/users/verify': { 409: EMAIL_TAKEN, 429: 'Too many failed links from this address' },
  'POST /api/users/verify/resend': { 429: 'Too many verification mails asked for' },
  'POST /api/users/login/2fa': { 429: 'Too many wrong codes for this account or from this address' },
  'POST /api/users/2fa/setup': { 409: 'Two-factor sign-in is already on (`TWO_FACTOR_ALREADY_ENABLED`)' },
  'POST /api/users/2fa/enable': { 409: 'Two-factor sign-in is already on (`TWO_FACTOR_ALREADY_ENABLED`)' },
  'POST /api/users/2fa/disable': { 429: BUSY_ALONE },
  'POST /api/users/2fa/recovery-codes': { 429: BUSY_ALONE },
  'POST /api/users/admin/add': { 409: EMAIL_TAKEN, 429: BUSY_ALONE },
  'PUT /api/users/admin/user/:id': {
    409: `${EMAIL_TAKEN}; or your own admin rights, or the last admin's (\`SELF_DEMOTION\`, \`LAST_ADMIN\`)`,
  },
  'DELETE /api/users/admin/user/:id': {
    409: 'Your own account, the last admin, or a customer the shop still owes trade-in credit or items',
  },
  'POST /api/products/add-new': { 409: 'A SKU is already used (`SKU_TAKEN`)', ...MULTIPART },
  'PUT /api/products/update/:id': { 409: 'A SKU is already used (`SKU_TAKEN`)', 413: MULTIPART[413] },
  'POST /api/products/:id/reviews': {
    409: 'You have reviewed this product already (`REVIEW_EXISTS`)',
    429: 'Too many review writes',
  },
  'PUT /api/products/:id/reviews/:reviewId': { 429: 'Too many review writes' },
  'PUT /api/products/:id/reviews/:reviewId/hide': {
    409: 'Showing a review that is not from a verified buyer (`REVIEW_NOT_VERIFIED`)',
  },
  'POST /api/contact': { 429: 'Too many messages from this address' },
  'POST /api/orders': {
    409: 'Not enough stock (`OUT_OF_STOCK`), too many open orders (`HOLD_LIMIT`), or a used-up discount code',
    429: DISCOUNT_TRIES,
  },
  'PUT /api/orders/:id/delivery': { 409: 'The order is not paid, or has expired' },
  'POST /api/orders/:id/cancel': { 409: ORDER_STATE },
  'POST /api/orders/:id/refund': {
    409: 'Not paid, nothing left to refund (`REFUND_TOO_LARGE`), or a refund under way (`REFUND_IN_PROGRESS`)',
  },
  'PUT /api/orders/:id/payment': {
    402: 'A gift card paid part of it: `amountDue` is still to pay (`PAYMENT_INCOMPLETE`)',
    409: `${ORDER_STATE}, or the payment does not match it`,
    429: GIFT_CARD_TRIES,
  },
  'POST /api/orders/:id/paypal': { 409: ORDER_STATE },
  'POST /api/orders/:id/paypal/capture': { 409: `${ORDER_STATE}, or the PayPal payment was already used` },
  'POST /api/giftcards/check-balance': { 429: GIFT_CARD_TRIES },
  'POST /api/giftcards/use': {
    409: `No balance left (\`INSUFFICIENT_BALANCE\`), or ${ORDER_STATE.toLowerCase()}`,
    429: GIFT_CARD_TRIES,
  },
  'POST /api/giftcards/remove': {
    409: 'The card is not applied to the order (`GIFT_CARD_NOT_APPLIED`), or the order is paid',
    429: GIFT_CARD_TRIES,
  },
  'POST /api/giftcards/admin/create': { 409: 'The code is taken (`CODE_TAKEN`)' },
  'PUT /api/giftcards/admin/:id/add-balance': { 409: 'The balance would be too high (`BALANCE_TOO_HIGH`)' },
  'POST /api/promotions/check': { 409: 'The code is used up (`DISCOUNT_CODE_USED_UP`)', 429: DISCOUNT_TRIES },
  'POST /api/promotions/admin': { 409: 'The code is taken (`CODE_TAKEN`)' },
  'PUT /api/promotions/admin/:id': { 409: 'The code is taken (`CODE_TAKEN`)' },
  'PUT /api/wishlist/:productId': { 409: 'The wishlist is full' },
  'POST /api/alerts': { 409: 'It is in stock: nothing to wait for', 429: 'Too many alerts asked for' },
  'POST /api/alerts/confirm': { 429: 'Too many failed links from this address' },
  'POST /api/alerts/unsubscribe': { 429: 'Too many failed links from this address' },
  'POST /api/alerts/unsubscribe/:token': { 429: 'Too many failed links from this address' },
  'POST /api/tradeins': { 409: 'Too many trade-ins open already (`TRADE_INS_FULL`)' },
  'POST /api/tradeins/:id/ship': { 409: TRADE_IN_STATE },
  'POST /api/tradeins/:id/cancel': { 409: TRADE_IN_STATE },
  'POST /api/tradeins/:id/accept': { 409: TRADE_IN_STATE },
  'POST /api/tradeins/:id/decline': { 409: TRADE_IN_STATE },
  'POST /api/tradeins/admin/:id/receive': { 409: TRADE_IN_STATE },
  'POST /api/tradeins/admin/:id/inspect': { 409: TRADE_IN_STATE },
  'POST /api/admin/import/products': {
    409: 'A SKU of the file was taken meanwhile (`SKU_TAKEN`)',
    ...MULTIPART,
  },
  'GET /api/admin/backup': { 409: 'Another backup is running' },
  'POST /api/webhooks/admin': { 409: 'Too many endpoints already (`WEBHOOK_LIMIT`)' },
  'GET /api/webhooks/admin/:id/secret': {
    409: 'The secret cannot be opened since the server key changed: rotate it (`WEBHOOK_SECRET_UNREADABLE`)',
  },
  'POST /api/webhooks/admin/:id/deliveries/:deliveryId/retry': {
    409: 'The delivery already succeeded (`WEBHOOK_DELIVERED`), or the endpoint is off (`WEBHOOK_DISABLED`)',
  },
};
