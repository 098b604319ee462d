import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import {
  ADMIN_REVIEWS_PATH,
  PRODUCTS_IMPORT_PATH,
  type AddBalanceBody,
  type AdminStats,
  type MostWanted,
  type ProductsImportResult,
  type AdminAddUserBody,
  type AdminUpdateUserBody,
  type CreateGiftCardBody,
  type GiftCard,
  type Order,
  type OrderStatus,
  type Product,
  type ProductFacets,
  type ProductListResponse,
  type PublicUser,
  type UpdateProductBody,
  type AdminReview,
  type AdminReviewPage,
  type OrdersExportQuery,
  type CreatePromotionBody,
  type Promotion,
  type UpdatePromotionBody,
} from '@pixel-vault/shared';
import { api, listParams, type ListArgs } from '../../app/api';

/** A page of an admin list (`paged()` in packages/shared/src/schemas/admin.ts). */
export interface Paged {
  page: number;
  totalPage: number;
  total: number;
}
export type AdminOrdersPage = Paged & { orders: Order[] };
/** Manage Orders: the search and page, and (issue 12) only the orders in one status. */
export type AdminOrdersArgs = ListArgs & { status?: OrderStatus };
/** POST /api/orders/:id/refund as this form sends it (`RefundBody`): no amount means everything left. */
export interface RefundRequest {
  amount?: number;
  reason: string;
  restock: boolean;
}
export type AdminUsersPage = Paged & { users: PublicUser[] };
/** Manage Reviews (issue 14): a search, only hidden or only visible reviews, a page. */
export interface AdminReviewsArgs {
  search?: string;
  hidden?: 'true' | 'false';
  page?: number;
}

/**
 * Issue 15: which CSV to download; the orders (and, issue 35, the trade-ins) may be limited to the days
 * they were placed.
 */
export type CsvExport = ({ kind: 'orders' | 'tradeins' } & OrdersExportQuery) | { kind: 'products' };
/**
 * A downloaded CSV, held as an object URL until the page saves it (a Blob cannot sit in the store,
 * whose state must stay serialisable). Whoever saves it revokes the URL.
 */
export interface CsvFile {
  url: string;
  filename: string;
}
/** Issue 15: a product CSV to preview (`dryRun`) or import, as the multipart field `file`. */
export interface ProductsImportArgs {
  file: File;
  dryRun: boolean;
}

/** The file name of a `Content-Disposition: attachment; filename="..."` header. */
export function attachmentName(header: string | null | undefined): string | undefined {
  return header ? /filename="?([^";]+)"?/i.exec(header)?.[1] : undefined;
}

const id = (value: string) => encodeURIComponent(value);
const PRODUCT_LIST = { type: 'Product' as const, id: 'LIST' };
const ORDER_LIST = { type: 'Order' as const, id: 'LIST' };
const USER_LIST = { type: 'User' as const, id: 'LIST' };
const GIFT_CARD_LIST = { type: 'GiftCard' as const, id: 'LIST' };
const REVIEW_LIST = { type: 'Review' as const, id: 'ADMIN_LIST' };
const STATS = { type: 'Order' as const, id: 'STATS' };
const PROMOTION_LIST = { type: 'Promotion' as const, id: 'LIST' };

/**
 * The admin routes of issue 4. Every write invalidates the list it changes (spec section 6: "After user
 * update, delete or add the list reloads", "After a gift card success the list reloads", delivery
 * reloads the order and the admin list), and product writes invalidate 'Product' so the shop's own
 * catalogue queries refetch at once.
 */
// Issue 32: the promotions' tag is this feature's own, added here rather than in the app's list.
export const adminApi = api.enhanceEndpoints({ addTagTypes: ['Promotion'] }).injectEndpoints({
  endpoints: (build) => ({
    addProduct: build.mutation<Product, FormData>({
      query: (body) => ({ url: 'api/products/add-new', method: 'POST', body }),
      invalidatesTags: [PRODUCT_LIST],
    }),
    updateProduct: build.mutation<Product, { id: string; body: UpdateProductBody }>({
      query: ({ id: productId, body }) => ({
        url: `api/products/update/${id(productId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, _error, { id: productId }) => [
        PRODUCT_LIST,
        { type: 'Product', id: productId },
      ],
    }),
    deleteProduct: build.mutation<unknown, string>({
      query: (productId) => ({ url: `api/products/delete/${id(productId)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, productId) => [PRODUCT_LIST, { type: 'Product', id: productId }],
    }),

    getAdminOrders: build.query<AdminOrdersPage, AdminOrdersArgs | void>({
      query: (args) => {
        const { status, ...list } = args ?? {};
        return {
          url: 'api/orders/admin/vieworders',
          params: { ...listParams(list), ...(status ? { status } : {}) },
        };
      },
      providesTags: (result) => [
        ORDER_LIST,
        ...(result?.orders ?? []).map((o) => ({ type: 'Order' as const, id: o._id })),
      ],
    }),
    markDelivered: build.mutation<Order, string>({
      query: (orderId) => ({
        url: `api/orders/${id(orderId)}/delivery`,
        method: 'PUT',
        body: { isDelivered: true },
      }),
      invalidatesTags: (_result, _error, orderId) => [ORDER_LIST, { type: 'Order', id: orderId }],
    }),
    /**
     * Issue 12: a full or partial refund. Whatever the answer, the order (its timeline shows a refusal)
     * and the lists are read again; gift cards got money back, and a restock changed the products.
     */
    refundOrder: build.mutation<Order, { id: string; body: RefundRequest }>({
      query: ({ id: orderId, body }) => ({ url: `api/orders/${id(orderId)}/refund`, method: 'POST', body }),
      invalidatesTags: (result, _error, { id: orderId, body }) => [
        ORDER_LIST,
        { type: 'Order', id: orderId },
        GIFT_CARD_LIST,
        ...(result && body.restock
          ? result.orderItems.map((item) => ({ type: 'Product' as const, id: item.product }))
          : []),
      ],
    }),

    getGiftCards: build.query<GiftCard[], void>({
      query: () => 'api/giftcards/admin/getall',
      providesTags: [GIFT_CARD_LIST],
    }),
    createGiftCard: build.mutation<GiftCard, CreateGiftCardBody>({
      query: (body) => ({ url: 'api/giftcards/admin/create', method: 'POST', body }),
      invalidatesTags: [GIFT_CARD_LIST],
    }),
    addGiftCardBalance: build.mutation<GiftCard, { id: string; body: AddBalanceBody }>({
      query: ({ id: cardId, body }) => ({
        url: `api/giftcards/admin/${id(cardId)}/add-balance`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: [GIFT_CARD_LIST],
    }),
    deleteGiftCard: build.mutation<unknown, string>({
      query: (cardId) => ({ url: `api/giftcards/admin/delete/${id(cardId)}`, method: 'DELETE' }),
      invalidatesTags: [GIFT_CARD_LIST],
    }),

    getAdminUsers: build.query<AdminUsersPage, ListArgs | void>({
      query: (args) => ({ url: 'api/users/admin/users', params: listParams(args ?? {}) }),
      providesTags: (result) => [
        USER_LIST,
        ...(result?.users ?? []).map((u) => ({ type: 'User' as const, id: u._id })),
      ],
    }),
    getAdminUser: build.query<PublicUser, string>({
      query: (userId) => `api/users/admin/user/${id(userId)}`,
      providesTags: (_result, _error, userId) => [{ type: 'User', id: userId }],
    }),
    updateAdminUser: build.mutation<PublicUser, { id: string; body: AdminUpdateUserBody }>({
      query: ({ id: userId, body }) => ({ url: `api/users/admin/user/${id(userId)}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id: userId }) => [USER_LIST, { type: 'User', id: userId }],
    }),
    deleteAdminUser: build.mutation<unknown, string>({
      query: (userId) => ({ url: `api/users/admin/user/${id(userId)}`, method: 'DELETE' }),
      invalidatesTags: [USER_LIST],
    }),
    addAdminUser: build.mutation<PublicUser, AdminAddUserBody>({
      query: (body) => ({ url: 'api/users/admin/add', method: 'POST', body }),
      invalidatesTags: [USER_LIST],
    }),
    getAdminReviews: build.query<AdminReviewPage, AdminReviewsArgs>({
      query: ({ search, hidden, page }) => ({
        // Relative to the API's base like every other call here.
        url: ADMIN_REVIEWS_PATH.replace(/^\//, ''),
        params: {
          ...(search?.trim() ? { search: search.trim() } : {}),
          ...(hidden ? { hidden } : {}),
          page: page && page > 1 ? page : 1,
        },
      }),
      providesTags: [REVIEW_LIST],
    }),
    /**
     * Issue 14: hides a review from the shop, or shows it again. The product's rating and count change
     * with it: the product, the shop's lists and the product's reviews are read again.
     */
    hideReview: build.mutation<AdminReview, { productId: string; reviewId: string; hidden: boolean }>({
      query: ({ productId, reviewId, hidden }) => ({
        url: `api/products/${id(productId)}/reviews/${id(reviewId)}/hide`,
        method: 'PUT',
        body: { hidden },
      }),
      invalidatesTags: (_result, _error, { productId }) => [
        REVIEW_LIST,
        { type: 'Review', id: productId },
        PRODUCT_LIST,
        { type: 'Product', id: productId },
      ],
    }),
    /**
     * Issue 15: the Overview's numbers over the last `days` days. Read again when an order or a product
     * changes (a delivery, a refund, a stock update, an import).
     */
    getAdminStats: build.query<AdminStats, number>({
      query: (days) => ({ url: 'api/admin/stats', params: { days } }),
      providesTags: [STATS, ORDER_LIST, PRODUCT_LIST],
    }),
    /** Issue 34: sold-out variants by the shoppers waiting for them (back-in-stock alerts), most first. */
    getMostWanted: build.query<MostWanted, void>({
      query: () => 'api/alerts/admin/most-wanted',
      providesTags: [PRODUCT_LIST],
    }),
    /**
     * Remove Product's and Update Product's search (ProductSearchList): the shop's own product list, by
     * name. The admin's own endpoint rather than the catalogue feature's (features don't import each
     * other); it is refetched by the same 'Product' tags.
     */
    searchProducts: build.query<ProductListResponse, Pick<ListArgs, 'q' | 'limit'>>({
      query: (args) => ({ url: 'api/products', params: listParams(args) }),
      providesTags: (result) => [
        PRODUCT_LIST,
        ...(result?.products ?? []).map((p) => ({ type: 'Product' as const, id: p._id })),
      ],
    }),
    /**
     * Issue 33: the platforms the shop's products already have (the whole catalogue's facets), offered
     * by the product forms' Platform field so one system is spelled one way. The admin's own endpoint
     * rather than the catalogue feature's (features don't import each other).
     */
    getPlatformsInUse: build.query<string[], void>({
      query: () => 'api/products/facets',
      transformResponse: (facets: ProductFacets) => facets.platforms.map((platform) => platform.value),
      providesTags: [PRODUCT_LIST],
    }),
    /** The product that a link opens in Update Product's edit form (`?section=update-product&product=`). */
    getProductToEdit: build.query<Product, string>({
      query: (productId) => `api/products/${id(productId)}`,
      providesTags: (_result, _error, productId) => [{ type: 'Product', id: productId }],
    }),
    /**
     * Issue 15: the CSV exports need the admin's token, so a plain link cannot fetch them: the file is
     * fetched here (through the base query: the token, and a logout on 'Not authorized!') and handed
     * back as an object URL with the server's file name.
     */
    exportCsv: build.mutation<CsvFile, CsvExport>({
      async queryFn(arg, _api, _extra, baseQuery) {
        const { kind } = arg;
        const result = await baseQuery({
          url: `api/admin/export/${kind}.csv`,
          // Undefined parameters are left out of the query string.
          params: arg.kind === 'products' ? undefined : { from: arg.from, to: arg.to },
          // A refusal is JSON ({message}); only a 2xx answer is the file.
          responseHandler: async (response) =>
            response.ok
              ? response.blob()
              : response.headers.get('content-type')?.includes('json')
                ? response.json()
                : response.text(),
        });
        if (result.error) return { error: result.error };
        const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(
          'content-disposition',
        );
        return {
          data: {
            url: URL.createObjectURL(result.data as Blob),
            filename: attachmentName(header) ?? `${kind}.csv`,
          },
        };
      },
    }),
    /**
     * Issue 15: POST /api/admin/import/products. A dry run writes nothing; an import refreshes the
     * catalogue (its lists, each updated product, the Overview's low-stock list).
     */
    importProducts: build.mutation<ProductsImportResult, ProductsImportArgs>({
      query: ({ file, dryRun }) => {
        const body = new FormData();
        body.append('file', file);
        return {
          url: PRODUCTS_IMPORT_PATH.replace(/^\//, ''),
          method: 'POST',
          params: { dryRun: String(dryRun) },
          body,
        };
      },
      invalidatesTags: (result) =>
        result && !result.dryRun && result.created + result.updated > 0
          ? [
              PRODUCT_LIST,
              STATS,
              ...result.changes
                .filter((change) => change.action === 'update' && change._id)
                .map((change) => ({ type: 'Product' as const, id: change._id ?? '' })),
            ]
          : [],
    }),
    /**
     * Issue 32: discount codes, newest first. Read again whenever the section opens: shoppers' orders
     * change a code's uses (and the clock its state) without a write here.
     */
    getPromotions: build.query<Promotion[], void>({
      query: () => 'api/promotions/admin',
      providesTags: [PROMOTION_LIST],
    }),
    createPromotion: build.mutation<Promotion, CreatePromotionBody>({
      query: (body) => ({ url: 'api/promotions/admin', method: 'POST', body }),
      invalidatesTags: [PROMOTION_LIST],
    }),
    /** Only the fields that changed; `null` clears an optional one. Activating is `{ active: true }`. */
    updatePromotion: build.mutation<Promotion, { id: string; body: UpdatePromotionBody }>({
      query: ({ id: promotionId, body }) => ({
        url: `api/promotions/admin/${id(promotionId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: [PROMOTION_LIST],
    }),
    /** Deactivates (a code on orders is never erased); answers the code as it is now. */
    deactivatePromotion: build.mutation<Promotion, string>({
      query: (promotionId) => ({ url: `api/promotions/admin/${id(promotionId)}`, method: 'DELETE' }),
      invalidatesTags: [PROMOTION_LIST],
    }),
    /** Issue 11: mails the user a reset link; the admin never sees or sets the password. */
    sendPasswordReset: build.mutation<{ message: string }, string>({
      query: (userId) => ({ url: `api/users/admin/user/${id(userId)}/password-reset`, method: 'POST' }),
    }),
    /** Issue 36: turns the user's two-factor sign-in off (they lost the phone); audited and mailed. */
    resetTwoFactor: build.mutation<{ message: string }, string>({
      query: (userId) => ({ url: `api/users/admin/user/${id(userId)}/2fa/reset`, method: 'POST' }),
    }),
  }),
});

export const {
  useGetMostWantedQuery,
  useAddProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useGetAdminOrdersQuery,
  useMarkDeliveredMutation,
  useRefundOrderMutation,
  useGetGiftCardsQuery,
  useCreateGiftCardMutation,
  useAddGiftCardBalanceMutation,
  useDeleteGiftCardMutation,
  useGetAdminUsersQuery,
  useGetAdminUserQuery,
  useUpdateAdminUserMutation,
  useDeleteAdminUserMutation,
  useAddAdminUserMutation,
  useSendPasswordResetMutation,
  useResetTwoFactorMutation,
  useGetAdminReviewsQuery,
  useHideReviewMutation,
  useGetAdminStatsQuery,
  useGetProductToEditQuery,
  useGetPlatformsInUseQuery,
  useSearchProductsQuery,
  useExportCsvMutation,
  useImportProductsMutation,
  useGetPromotionsQuery,
  useCreatePromotionMutation,
  useUpdatePromotionMutation,
  useDeactivatePromotionMutation,
} = adminApi;
