/** Request fields shared by the messaging operations (spec "Messaging"). */
import * as z from '#api/zod';
import { int32 } from '#api/params';

/** `?limit=` of the conversation lists (1–100). */
export const limitQuery = () => z.object({ limit: z.optional(int32({ min: 1, max: 100 })) });

/** An email subject (RFC 5322 §2.1.1 line limit: 998 characters). */
export const subject = () => z.string().check(z.maxLength(998));
/** An HTML body. */
export const html = () => z.string().check(z.maxLength(500_000));
/** A plain-text body. */
export const text = () => z.string().check(z.maxLength(100_000));
/** Short labels (roles, tones, intents, audiences, focus, topic). */
export const label = () => z.string().check(z.maxLength(200));
