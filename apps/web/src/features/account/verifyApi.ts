import type { VerifyEmailResponse, VerifyResendResponse } from '@pixel-vault/shared';
import { api } from '../../app/api';
import { accountApi } from './api';
import { type AuthState, setCredentials } from './authSlice';

type Dispatch = (action: unknown) => unknown;

/**
 * The stored userInfo follows what the server now says of the account (issue 36): after a link was
 * opened, or a resend found the address verified already, the banner goes and the header shows the
 * new address. Only for the account that is logged in in this browser (the link may be another's).
 */
async function followProfile(dispatch: Dispatch, getState: () => unknown): Promise<void> {
  const state = () => (getState() as { auth: AuthState }).auth.userInfo;
  if (!state()) return;
  const result = (await dispatch(
    accountApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true, subscribe: false }),
  )) as { data?: { _id: string; name: string; email: string; emailVerified: boolean } };
  const profile = result.data;
  const now = state();
  if (!profile || !now || now._id !== profile._id) return;
  dispatch(
    setCredentials({
      ...now,
      name: profile.name,
      email: profile.email,
      emailVerified: profile.emailVerified,
    }),
  );
}

/** Issue 36: opening a verification link (POST /api/users/verify) and asking for a new one. */
export const verifyApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyEmail: build.mutation<VerifyEmailResponse, string>({
      query: (token) => ({ url: '/api/users/verify', method: 'POST', body: { token } }),
      async onQueryStarted(_token, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) await followProfile(dispatch, getState);
      },
    }),
    resendVerification: build.mutation<VerifyResendResponse, void>({
      query: () => ({ url: '/api/users/verify/resend', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) await followProfile(dispatch, getState);
      },
    }),
  }),
});

export const { useVerifyEmailMutation, useResendVerificationMutation } = verifyApi;
