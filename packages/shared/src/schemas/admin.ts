import { z } from 'zod';
import { Category, PLATFORM_MAX } from './products.js';
import { Dollars, optionalPagingQuery, pagingQuery } from './common.js';
import { count, money, text } from './fields.js';
import { type ProductVariantInput, VariantFields, variantsProblem } from './product-variants.js';
import { Email, Name, NewPassword } from './users.js';
import { OrderStatus } from './orders.js';

/**
 * Admin contract (issue 4). Product fields arrive as multipart form fields (strings), so numbers are
 * coerced; every rule of spec section 5 is checked here and on the server.
 */
export const MAX_UPLOAD_IMAGES = 4;

/** A product's platform as the admin sends it (issue 33): text, or empty for none (null). */
export const PlatformField = z
  .string({ message: 'Platform must be text' })
  .trim()
  .max(PLATFORM_MAX, { message: `Platform is at most ${PLATFORM_MAX} characters` })
  .transform((v) => (v === '' ? null : v));

/** POST /api/products/add-new (multipart fields; 1-4 `images` files beside them). */
export const CreateProductFields = z.object({
  productName: text('Name', 200),
  productCategory: Category,
  productDescription: text('Description', 5000),
  productPrice: money('Price'),
  stockQuantity: count('Stock'),
  platform: PlatformField.optional(),
  /**
   * Still accepted from spec clients (spec section 5) but ignored: rating and count are computed from
   * verified buyers' reviews and a new product starts at 0 / 0 (issue 14, docs/reviews.md).
   */
  productRating: z.unknown().optional(),
  reviewCount: z.unknown().optional(),
});
export type CreateProductFields = z.infer<typeof CreateProductFields>;

/** PUT /api/products/update/:id (multipart or JSON): any subset; also used with stockQuantity alone. */
const UpdateProductShape = {
  productName: text('Name', 200),
  productCategory: Category,
  productDescription: text('Description', 5000),
  productPrice: money('Price'),
  stockQuantity: count('Stock'),
  platform: PlatformField,
};
export const UpdateProductFields = z
  .object(UpdateProductShape)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type UpdateProductFields = z.infer<typeof UpdateProductFields>;

/**
 * The spec's price and stock sent beside `variants` (issue 31) are the first variant's: they must say
 * the same, or the request contradicts itself.
 */
function spokenForProblem(v: {
  productPrice?: number | undefined;
  stockQuantity?: number | undefined;
  variants?: ProductVariantInput[] | undefined;
}): string | null {
  const first = v.variants?.[0];
  if (!first) return null;
  if (v.productPrice !== undefined && Math.round(v.productPrice * 100) !== Math.round(first.price * 100)) {
    return 'Price is the first variant’s: leave it out or send the same';
  }
  if (v.stockQuantity !== undefined && v.stockQuantity !== first.stockQuantity) {
    return 'Stock is the first variant’s: leave it out or send the same';
  }
  return null;
}

/**
 * POST /api/products/add-new as the route reads it: the spec's fields (CreateProductFields), and
 * optionally `options` and `variants` (issue 31). With variants, price and stock are theirs and may be
 * left out; without, a product without options is made, with one variant of the price and stock.
 */
export const CreateProductBody = z
  .object({
    ...CreateProductFields.shape,
    productPrice: money('Price').optional(),
    stockQuantity: count('Stock').optional(),
    ...VariantFields,
  })
  .superRefine((v, ctx) => {
    const problem = (message: string | null) => {
      if (message) ctx.addIssue({ code: 'custom', message });
    };
    if (!v.variants) {
      if (v.options?.length) return problem('Send the variants with the options');
      if (v.productPrice === undefined) return problem('Price is required');
      if (v.stockQuantity === undefined) return problem('Stock is required');
      return;
    }
    if (v.variants.some((variant) => variant._id !== undefined)) {
      return problem('A new product’s variants have no _id yet');
    }
    problem(variantsProblem(v.options ?? [], v.variants) ?? spokenForProblem(v));
  });
export type CreateProductBody = z.infer<typeof CreateProductBody>;

/**
 * PUT /api/products/update/:id as the route reads it: any of the spec's fields, `options` and
 * `variants` (issue 31). What can be checked without the product is checked here; the server checks
 * options against the variants the product keeps when only one of the two is sent.
 */
export const UpdateProductBody = z
  .object({ ...UpdateProductShape, ...VariantFields })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' })
  .superRefine((v, ctx) => {
    const message =
      (v.options && v.variants ? variantsProblem(v.options, v.variants) : null) ?? spokenForProblem(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

export const ADMIN_ORDERS_DEFAULT_LIMIT = 20;
export const ADMIN_USERS_DEFAULT_LIMIT = 9;

/**
 * GET /api/orders/admin/vieworders?q=&page=&limit= (q: the order id or its beginning). Without page and
 * limit: every matching order as an array (spec section 7); with either: a page of them.
 */
export const AdminOrdersQuery = z.object({
  q: z.string().trim().max(36).optional(),
  /** Only orders in this status (issue 12). */
  status: OrderStatus.optional(),
  ...optionalPagingQuery(100),
});
export type AdminOrdersQuery = z.infer<typeof AdminOrdersQuery>;

/** PUT /api/orders/:id/delivery */
export const DeliveryBody = z.object({
  isDelivered: z.literal(true, { message: 'isDelivered must be true' }),
});
export type DeliveryBody = z.infer<typeof DeliveryBody>;

/** PUT /api/giftcards/admin/:id/add-balance */
export const AddBalanceBody = z.object({
  amount: Dollars.refine((v) => v > 0, { message: 'Amount must be greater than 0' }).refine(
    (v) => v <= 100_000,
    {
      message: 'Amount is at most 100000',
    },
  ),
});
export type AddBalanceBody = z.infer<typeof AddBalanceBody>;

/**
 * GET /api/users/admin/users?q=&page=&limit= (q: name or e-mail, case-insensitive). Without page and
 * limit: every matching user as an array (spec section 7); with either: a page of them.
 */
export const AdminUsersQuery = z.object({
  q: z.string().trim().max(100).optional(),
  ...optionalPagingQuery(100),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

/** PUT /api/users/admin/user/:id — editing name or e-mail never touches the password. */
export const AdminUpdateUserBody = z.object({ name: Name, email: Email, isAdmin: z.boolean() });
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;

/** POST /api/users/admin/add */
export const AdminAddUserBody = z.object({ name: Name, email: Email, password: NewPassword });
export type AdminAddUserBody = z.infer<typeof AdminAddUserBody>;

/** A page of anything listed. The key stays a literal type (not an index signature). */
export function paged<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({
    ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
    page: z.number().int(),
    totalPage: z.number().int(),
    total: z.number().int(),
  });
}

/** GET /api/admin/audit?page=&limit=: who changed what, when, before/after. */
export const AuditEntry = z.object({
  _id: z.string(),
  actor: z.object({ _id: z.string(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A spec list answer: every item as an array, or the page asked for (docs/decisions/003). */
export function listOrPage<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.union([z.array(item), paged(key, item)]);
}
export const AuditQuery = z.object({ ...pagingQuery(50, 200) });
export type AuditQuery = z.infer<typeof AuditQuery>;
