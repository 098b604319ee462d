import type { AlertConfirmed, AlertSubscribeBody, StockAlert, StockAlerts } from '@pixel-vault/shared';
import { api } from '../../app/api';

/**
 * Issue 34, docs/back-in-stock.md: "Notify me when it is back". A logged-in shopper's subscribe answers
 * the alert (201, or 200 when it was there already); a visitor's always answers 202 and the same
 * message, whatever the address (they confirm with a mailed link first).
 */
export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    subscribeAlert: build.mutation<StockAlert | { message: string }, AlertSubscribeBody>({
      query: (body) => ({ url: 'api/alerts', method: 'POST', body }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    /** Sent by the confirmation page, never by opening its link (mail scanners open links). */
    confirmAlert: build.mutation<AlertConfirmed, string>({
      query: (token) => ({ url: 'api/alerts/confirm', method: 'POST', body: { token } }),
    }),
    unsubscribeAlerts: build.mutation<{ message: string }, string>({
      query: (token) => ({ url: 'api/alerts/unsubscribe', method: 'POST', body: { token } }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    getMyAlerts: build.query<StockAlerts, void>({
      query: () => 'api/alerts',
      providesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    cancelAlert: build.mutation<StockAlerts, string>({
      query: (id) => ({ url: `api/alerts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(alertsApi.util.upsertQueryData('getMyAlerts', undefined, data));
      },
    }),
  }),
});

export const {
  useSubscribeAlertMutation,
  useConfirmAlertMutation,
  useUnsubscribeAlertsMutation,
  useGetMyAlertsQuery,
  useCancelAlertMutation,
} = alertsApi;
