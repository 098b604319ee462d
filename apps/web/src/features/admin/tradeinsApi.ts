import type { InspectTradeInBody, TradeIn, TradeInStatus, TradeInsPage } from '@pixel-vault/shared';
import { api } from '../../app/api';

/** The admin's queue: one status (or every trade-in), a page. */
export interface AdminTradeInsArgs {
  status?: TradeInStatus;
  /** A packing slip's reference, or part of the customer's name or e-mail. */
  q?: string;
  page?: number;
  limit?: number;
}

const ADMIN_LIST = { type: 'TradeIn' as const, id: 'ADMIN_LIST' };
const tradeInTag = (id: string) => ({ type: 'TradeIn' as const, id });
const path = (id: string) => `api/tradeins/admin/${encodeURIComponent(id)}`;

/**
 * Issue 35: the admin's side of trade-ins (docs/trade-ins.md): the queue by status, one trade-in with its
 * customer, and the two moves that are the shop's: receive the box, inspect its items. A move answers the
 * trade-in as it now is; the queue is read again. The tag is added here, as the promotions' is.
 */
export const adminTradeInsApi = api.enhanceEndpoints({ addTagTypes: ['TradeIn'] }).injectEndpoints({
  endpoints: (build) => ({
    getAdminTradeIns: build.query<TradeInsPage, AdminTradeInsArgs>({
      query: ({ status, q, page, limit }) => ({
        url: 'api/tradeins/admin',
        params: {
          ...(status ? { status } : {}),
          ...(q ? { q } : {}),
          page: page && page > 1 ? page : 1,
          ...(limit ? { limit } : {}),
        },
      }),
      providesTags: (result) => [ADMIN_LIST, ...(result?.tradeIns ?? []).map((t) => tradeInTag(t._id))],
    }),
    getAdminTradeIn: build.query<TradeIn, string>({
      query: (id) => path(id),
      providesTags: (_result, _error, id) => [tradeInTag(id)],
    }),
    receiveTradeIn: build.mutation<TradeIn, string>({
      query: (id) => ({ url: `${path(id)}/receive`, method: 'POST', body: {} }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(adminTradeInsApi.util.upsertQueryData('getAdminTradeIn', id, data));
      },
      invalidatesTags: (result, _error, id) => (result ? [ADMIN_LIST] : [ADMIN_LIST, tradeInTag(id)]),
    }),
    inspectTradeIn: build.mutation<TradeIn, { id: string; body: InspectTradeInBody }>({
      query: ({ id, body }) => ({ url: `${path(id)}/inspect`, method: 'POST', body }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(adminTradeInsApi.util.upsertQueryData('getAdminTradeIn', id, data));
      },
      invalidatesTags: (result, _error, { id }) => (result ? [ADMIN_LIST] : [ADMIN_LIST, tradeInTag(id)]),
    }),
  }),
});

export const {
  useGetAdminTradeInsQuery,
  useGetAdminTradeInQuery,
  useReceiveTradeInMutation,
  useInspectTradeInMutation,
} = adminTradeInsApi;
