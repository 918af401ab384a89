import { z } from 'zod';

// The contact form's rules (docs/product.md §2, §9). The same schema validates the form in the
// browser (through the react-hook-form resolver) and the request in POST /api/contact, so each
// message exists once.
// The maximum lengths keep one message well inside the 64 KB body limit and a readable inbox card.

export const CONTACT_LIMITS = { name: 100, email: 254, phone: 40, message: 5000, honeypot: 500 } as const;

export const contactSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(CONTACT_LIMITS.name, `Name must be at most ${CONTACT_LIMITS.name} characters`),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(CONTACT_LIMITS.email, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  phone: z.string().trim().max(CONTACT_LIMITS.phone, `Phone must be at most ${CONTACT_LIMITS.phone} characters`).nullish(),
  message: z
    .string({ error: 'Message must be at least 10 characters' })
    .trim()
    .min(10, 'Message must be at least 10 characters')
    .max(CONTACT_LIMITS.message, `Message must be at most ${CONTACT_LIMITS.message} characters`),
  /** Honeypot: hidden from people, filled by bots. Any value means "drop silently". */
  website: z.string().max(CONTACT_LIMITS.honeypot).optional(),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactRequest = z.output<typeof contactSchema>;

export const CONTACT_SUCCESS_MESSAGE = "Thank you for your message. We'll get back to you as soon as possible.";

/** PATCH /api/admin/contact-messages/:id: the admin marks a message read or unread. */
export const contactReadSchema = z.object({ read: z.boolean({ error: 'read must be true or false' }) });
