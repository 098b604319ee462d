import type {
  AddBalanceBody,
  AdminAddUserBody,
  AdminUpdateUserBody,
  CreateGiftCardBody,
  GiftCard,
  Order,
  OrderStatus,
  Product,
  PublicUser,
  UpdateProductFields,
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

const id = (value: string) => encodeURIComponent(value);
const PRODUCT_LIST = { type: 'Product' as const, id: 'LIST' };
const ORDER_LIST = { type: 'Order' as const, id: 'LIST' };
const USER_LIST = { type: 'User' as const, id: 'LIST' };
const GIFT_CARD_LIST = { type: 'GiftCard' as const, id: 'LIST' };

/**
 * The admin routes of issue 4. Every write invalidates the list it changes (spec section 6: "After user
 * update, delete or add the list reloads", "After a gift card success the list reloads", delivery
 * reloads the order and the admin list), and product writes invalidate 'Product' so the shop's own
 * catalogue queries refetch at once.
 */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    addProduct: build.mutation<Product, FormData>({
      query: (body) => ({ url: 'api/products/add-new', method: 'POST', body }),
      invalidatesTags: [PRODUCT_LIST],
    }),
    updateProduct: build.mutation<Product, { id: string; body: UpdateProductFields }>({
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
    /** Issue 11: mails the user a reset link; the admin never sees or sets the password. */
    sendPasswordReset: build.mutation<{ message: string }, string>({
      query: (userId) => ({ url: `api/users/admin/user/${id(userId)}/password-reset`, method: 'POST' }),
    }),
  }),
});

export const {
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
} = adminApi;
