import { z } from 'zod';
import { Email } from './users.js';

/** POST /api/contact (spec section 3: contact message). */
export const ContactBody = z.object({
  from_name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, { message: 'Name is required' })
    .max(100, { message: 'Name is at most 100 characters' }),
  from_email: Email,
  message: z
    .string({ message: 'Message is required' })
    .trim()
    .min(1, { message: 'Message is required' })
    .max(5000, { message: 'Message is at most 5000 characters' }),
});
export type ContactBody = z.infer<typeof ContactBody>;
