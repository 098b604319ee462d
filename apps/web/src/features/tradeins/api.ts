import type { BuylistResponse, CreateTradeInBody, TradeIn } from '@pixel-vault/shared';
import { api, listParams, type ListArgs } from '../../app/api';

/** How many buy-list rows a page of the sell page shows. */
export const BUYLIST_PAGE_SIZE = 12;

/** The customer's moves on their own trade-in (POST /api/tradeins/:id/{move}); each answers the trade-in. */
export type TradeInMove = 'ship' | 'cancel' | 'accept' | 'decline';

/** POST /api/tradeins/:id/ship's body as sent (`ShipTradeInBody` before its parse). */
export interface ShipTradeInRequest {
  trackingNumber?: string;
}

const tradeInTag = (id: string) => ({ type: 'TradeIn' as const, id });
const MINE = { type: 'TradeIn' as const, id: 'MINE' };
const path = (id: string) => `api/tradeins/${encodeURIComponent(id)}`;

/**
 * Issue 35 (docs/trade-ins.md): the buy list (public), a logged-in shopper's quote, their trade-ins and
 * the moves they make on them. A move answers the trade-in as it now is: it replaces the cached one, and
 * the list is read again. The tag is this feature's own, added here rather than in the app's list.
 */
export const tradeinsApi = api.enhanceEndpoints({ addTagTypes: ['TradeIn'] }).injectEndpoints({
  endpoints: (build) => ({
    getBuylist: build.query<BuylistResponse, ListArgs>({
      query: (args) => ({ url: 'api/tradeins/buylist', params: listParams(args) }),
    }),
    createTradeIn: build.mutation<TradeIn, CreateTradeInBody>({
      query: (body) => ({ url: 'api/tradeins', method: 'POST', body }),
      // The page it opens next reads it from here.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(tradeinsApi.util.upsertQueryData('getTradeIn', data._id, data));
      },
      invalidatesTags: [MINE],
    }),
    getMyTradeIns: build.query<TradeIn[], void>({
      query: () => 'api/tradeins',
      providesTags: (result) => [MINE, ...(result ?? []).map((t) => tradeInTag(t._id))],
    }),
    getTradeIn: build.query<TradeIn, string>({
      query: (id) => path(id),
      providesTags: (_result, _error, id) => [tradeInTag(id)],
    }),
    moveTradeIn: build.mutation<
      TradeIn,
      { id: string; move: TradeInMove; body?: { trackingNumber?: string } }
    >({
      query: ({ id, move, body }) => ({ url: `${path(id)}/${move}`, method: 'POST', body: body ?? {} }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(tradeinsApi.util.upsertQueryData('getTradeIn', id, data));
      },
      // A refused move (409: it changed meanwhile) reads the trade-in again too.
      invalidatesTags: (result, _error, { id }) => (result ? [MINE] : [MINE, tradeInTag(id)]),
    }),
  }),
});

export const {
  useGetBuylistQuery,
  useCreateTradeInMutation,
  useGetMyTradeInsQuery,
  useGetTradeInQuery,
  useMoveTradeInMutation,
} = tradeinsApi;
