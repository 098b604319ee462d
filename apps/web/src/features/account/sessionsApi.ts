import type { UserSessionsResponse } from '@pixel-vault/shared';
import { api } from '../../app/api';

/** The list is cached under the User tag (no tag of its own to add to the app's api). */
const SESSIONS_TAG = { type: 'User' as const, id: 'SESSIONS' };

/**
 * Issue 36: where the account is signed in. Both sign-outs answer the sessions still live, which
 * replace the cached list at once.
 */
export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<UserSessionsResponse, void>({
      query: () => '/api/users/sessions',
      providesTags: [SESSIONS_TAG],
    }),
    revokeSession: build.mutation<UserSessionsResponse, string>({
      query: (id) => ({ url: `/api/users/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(sessionsApi.util.upsertQueryData('getSessions', undefined, data));
      },
    }),
    revokeOtherSessions: build.mutation<UserSessionsResponse, void>({
      query: () => ({ url: '/api/users/sessions/revoke-others', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(sessionsApi.util.upsertQueryData('getSessions', undefined, data));
      },
    }),
  }),
});

export const { useGetSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation } = sessionsApi;
