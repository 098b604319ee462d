import type {
  ForgotPasswordBody,
  LoginBody,
  ProfileUpdateAnswer,
  PublicUser,
  RegisterBody,
  ResetPasswordBody,
  TwoFactorChallenge,
  UpdateProfileBody,
  UserInfo,
} from '@pixel-vault/shared';
import { api } from '../../app/api';
import { loggedIn, setCredentials } from './authSlice';

/** The public part of a user info: what GET /api/users/profile answers. */
function publicPart({ token: _token, message: _message, ...user }: ProfileUpdateAnswer): PublicUser {
  return user;
}

/** The login's answer for an account with two-factor sign-in: a challenge, not the user info. */
export function isTwoFactorChallenge(answer: UserInfo | TwoFactorChallenge): answer is TwoFactorChallenge {
  return 'twoFactorRequired' in answer && answer.twoFactorRequired === true;
}

/**
 * Spec section 7: POST /api/users/login and POST /api/users both answer with the user info that the
 * app keeps as userInfo. Registration success also counts as login (spec section 4). Issue 11 adds the
 * password reset (whose success logs in too) and the profile, whose changes answer a fresh user info.
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Issue 36: an account with two-factor sign-in answers a challenge (no token) for the code step. */
    login: build.mutation<UserInfo | TwoFactorChallenge, LoginBody>({
      query: (body) => ({ url: '/api/users/login', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data && !isTwoFactorChallenge(data)) dispatch(loggedIn(data));
      },
    }),
    register: build.mutation<UserInfo, RegisterBody>({
      query: (body) => ({ url: '/api/users', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(loggedIn(data));
      },
    }),
    /** Always answers 202 with the same neutral message, whether or not the e-mail has an account. */
    forgotPassword: build.mutation<{ message: string }, ForgotPasswordBody>({
      query: (body) => ({ url: '/api/users/password/forgot', method: 'POST', body }),
    }),
    /**
     * Sets the new password and logs in: the answer is kept as userInfo, as after login. An account with
     * two-factor sign-in answers a challenge instead (issue 36): the mailbox alone does not sign in.
     */
    resetPassword: build.mutation<UserInfo | TwoFactorChallenge, ResetPasswordBody>({
      query: (body) => ({ url: '/api/users/password/reset', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data && !isTwoFactorChallenge(data)) dispatch(loggedIn(data));
      },
    }),
    getProfile: build.query<PublicUser, void>({
      query: () => '/api/users/profile',
      providesTags: [{ type: 'User', id: 'PROFILE' }],
    }),
    /**
     * A changed password or e-mail ends the user's other sessions and answers a fresh token for this
     * one: the whole answer replaces userInfo (token included), so the header shows the new name at once.
     */
    /** Issue 36: a new e-mail waits for its link (`pendingEmail`), and `message` says so. */
    updateProfile: build.mutation<ProfileUpdateAnswer, UpdateProfileBody>({
      query: (body) => ({ url: '/api/users/profile', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        const { message: _message, ...userInfo } = data;
        dispatch(setCredentials(userInfo));
        dispatch(accountApi.util.upsertQueryData('getProfile', undefined, publicPart(data)));
      },
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useGetProfileQuery,
  useUpdateProfileMutation,
} = accountApi;
