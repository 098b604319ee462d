import type {
  EnableTwoFactorBody,
  LoginTwoFactorBody,
  RecoveryCodes,
  TwoFactorConfirmBody,
  TwoFactorSetup,
  TwoFactorStatus,
  UserInfo,
} from '@pixel-vault/shared';
import { api } from '../../app/api';
import { loggedIn } from './authSlice';

/** The status is cached under the User tag (no tag of its own to add to the app's api). */
const TWO_FACTOR_TAG = { type: 'User' as const, id: 'TWO_FACTOR' };

/**
 * Issue 36: two-factor sign-in. Setup answers a secret that is not active until a first code enables
 * it; enabling and a new set answer the recovery codes, shown once. The login's second step answers the
 * user info, which becomes the session exactly as a password login does (`loggedIn`).
 */
export const twoFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTwoFactorStatus: build.query<TwoFactorStatus, void>({
      query: () => '/api/users/2fa',
      providesTags: [TWO_FACTOR_TAG],
    }),
    startTwoFactorSetup: build.mutation<TwoFactorSetup, void>({
      query: () => ({ url: '/api/users/2fa/setup', method: 'POST' }),
    }),
    enableTwoFactor: build.mutation<RecoveryCodes, EnableTwoFactorBody>({
      query: (body) => ({ url: '/api/users/2fa/enable', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [TWO_FACTOR_TAG] : []),
    }),
    disableTwoFactor: build.mutation<unknown, TwoFactorConfirmBody>({
      query: (body) => ({ url: '/api/users/2fa/disable', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [TWO_FACTOR_TAG]),
    }),
    newRecoveryCodes: build.mutation<RecoveryCodes, TwoFactorConfirmBody>({
      query: (body) => ({ url: '/api/users/2fa/recovery-codes', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [TWO_FACTOR_TAG] : []),
    }),
    loginTwoFactor: build.mutation<UserInfo, LoginTwoFactorBody>({
      query: (body) => ({ url: '/api/users/login/2fa', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(loggedIn(data));
      },
    }),
  }),
});

export const {
  useGetTwoFactorStatusQuery,
  useStartTwoFactorSetupMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useNewRecoveryCodesMutation,
  useLoginTwoFactorMutation,
} = twoFactorApi;

/** My Account's two-factor section: an admin who must turn it on is sent to `/account#two-factor`. */
export const TWO_FACTOR_SECTION_ID = 'two-factor';
