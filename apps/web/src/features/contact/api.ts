import type { ContactBody, MessageResponse } from '@pixel-vault/shared';
import { api } from '../../app/api';

/**
 * Spec sections 2 and 7 send the contact form through a third-party e-mail service from the
 * browser; here the server relays it (POST /api/contact), so no mail credentials reach the client.
 */
export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContactMessage: build.mutation<MessageResponse | null, ContactBody>({
      query: (body) => ({ url: '/api/contact', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMessageMutation } = contactApi;
