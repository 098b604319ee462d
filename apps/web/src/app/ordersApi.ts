import type {
  BalanceResponse,
  CheckBalanceBody,
  CheckDiscountBody,
  CheckDiscountResponse,
  CreateOrderBody,
  Order,
  PaymentUpdateBody,
  PayPalOrderResponse,
  RemoveGiftCardBody,
  RemoveGiftCardResponse,
  ShopConfigResponse,
  UseGiftCardBody,
  UseGiftCardResponse,
} from '@pixel-vault/shared';
import { api } from './api';

/**
 * POST /api/orders as the spec sends it (section 7): names, images, prices and totals travel too, for
 * the record, but the server prices the order itself and ignores them.
 */
export type CreateOrderRequest = Omit<CreateOrderBody, 'orderItems'> & {
  orderItems: (CreateOrderBody['orderItems'][number] & {
    itemName: string;
    itemPrice: number;
    displayImage: string;
  })[];
  price: number;
  taxPrice: number;
  shippingPrice: number;
  totalPrice: number;
};

const orderTag = (id: string) => ({ type: 'Order' as const, id });
const LIST = { type: 'Order' as const, id: 'LIST' };

/**
 * Orders, payments and the customer's gift-card calls (spec section 7, issue 3). After a payment the
 * order's tag is invalidated, so a shown order reloads (spec section 4).
 */
export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    createOrder: build.mutation<Order, CreateOrderRequest>({
      query: (body) => ({ url: 'api/orders', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    getOrder: build.query<Order, string>({
      query: (id) => `api/orders/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [orderTag(id)],
    }),
    getMyOrders: build.query<Order[], void>({
      query: () => 'api/orders',
      providesTags: (result) => [LIST, ...(result ?? []).map((o) => orderTag(o._id))],
    }),
    payOrder: build.mutation<Order, { id: string; body: PaymentUpdateBody }>({
      query: ({ id, body }) => ({ url: `api/orders/${encodeURIComponent(id)}/payment`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [orderTag(id), LIST],
    }),
    /** The PayPal client id with the payment mode (the spec's /api/config/paypal answers the bare id). */
    getPayPalConfig: build.query<ShopConfigResponse, void>({
      query: () => 'api/config',
    }),
    createPayPalOrder: build.mutation<PayPalOrderResponse, string>({
      query: (id) => ({ url: `api/orders/${encodeURIComponent(id)}/paypal`, method: 'POST' }),
    }),
    capturePayPalOrder: build.mutation<Order, { id: string; paypalOrderId: string }>({
      query: ({ id, paypalOrderId }) => ({
        url: `api/orders/${encodeURIComponent(id)}/paypal/capture`,
        method: 'POST',
        body: { paypalOrderId },
      }),
      invalidatesTags: (_result, _error, { id }) => [orderTag(id), LIST],
    }),
    /**
     * Issue 12: the customer cancels their order (a paid one is refunded in full, and its items go
     * back on the shelf). Whatever the answer, the order and the lists are read again: even a refusal
     * can mean it changed meanwhile (delivered, or a refund left to complete later).
     */
    cancelOrder: build.mutation<Order, string>({
      query: (id) => ({ url: `api/orders/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => [
        orderTag(id),
        LIST,
        'GiftCard' as const,
        ...(result?.orderItems ?? []).map((item) => ({ type: 'Product' as const, id: item.product })),
      ],
    }),
    checkGiftCardBalance: build.mutation<BalanceResponse, CheckBalanceBody>({
      query: (body) => ({ url: 'api/giftcards/check-balance', method: 'POST', body }),
    }),
    useGiftCard: build.mutation<UseGiftCardResponse, UseGiftCardBody>({
      query: (body) => ({ url: 'api/giftcards/use', method: 'POST', body }),
      invalidatesTags: (result, _error, { orderId }) => {
        const id = orderId ?? result?.orderId;
        return [...(id ? [orderTag(id)] : []), LIST, 'GiftCard' as const];
      },
    }),
    /**
     * Issue 32: the cart priced with a discount code, as the order would be, or the server's refusal
     * (its `message` is for the shopper). A query, so the price follows the cart while a code is
     * applied; the server counts only unknown codes against the shopper's tries.
     */
    checkDiscount: build.query<CheckDiscountResponse, CheckDiscountBody>({
      query: (body) => ({ url: 'api/promotions/check', method: 'POST', body }),
    }),
    /**
     * Issue 30: takes a gift card off an unpaid order (its money goes back to the card). Whatever the
     * answer, the order is read again: a refusal may mean it was paid meanwhile.
     */
    removeGiftCard: build.mutation<RemoveGiftCardResponse, RemoveGiftCardBody>({
      query: (body) => ({ url: 'api/giftcards/remove', method: 'POST', body }),
      invalidatesTags: (_result, _error, { orderId }) => [orderTag(orderId), LIST, 'GiftCard' as const],
    }),
  }),
});

export const {
  useCreateOrderMutation,
  useGetOrderQuery,
  useGetMyOrdersQuery,
  usePayOrderMutation,
  useGetPayPalConfigQuery,
  useCreatePayPalOrderMutation,
  useCapturePayPalOrderMutation,
  useCancelOrderMutation,
  useCheckGiftCardBalanceMutation,
  useUseGiftCardMutation,
  useRemoveGiftCardMutation,
  useCheckDiscountQuery,
} = ordersApi;
