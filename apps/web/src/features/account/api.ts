import type { LoginBody, RegisterBody, UserInfo } from '@pixel-vault/shared';
import { api } from '../../app/api';
import { setCredentials } from './authSlice';

/**
 * Spec section 7: POST /api/users/login and POST /api/users both answer with the user info that the
 * app keeps as userInfo. Registration success also counts as login (spec section 4).
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<UserInfo, LoginBody>({
      query: (body) => ({ url: '/api/users/login', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
    register: build.mutation<UserInfo, RegisterBody>({
      query: (body) => ({ url: '/api/users', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(setCredentials(data));
      },
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation } = accountApi;
