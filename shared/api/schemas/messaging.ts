/**
 * Request fields shared by the messaging operations (spec "Messaging"). Body sizes keep a message, its idempotency
 * record and its response under DynamoDB's 400 KB item limit.
 */
import * as z from '#api/zod';
import { int32, uuid } from '#api/params';
import { MAX_LINK_HOURS } from '#domain/document-share';
import { MAX_SMS_CHARS } from '#domain/sms-text';

/** `?limit=` of a list (1–`max`; the handler applies its default). */
export const limitQuery = (max = 100) => z.object({ limit: z.optional(int32({ min: 1, max })) });

/** An email subject (RFC 5322 §2.1.1 line limit: 998 characters). */
export const subject = () => z.string().check(z.maxLength(998));
/** An HTML body, at most 100,000 characters (Gmail clips a message past about 102 KB anyway). */
export const html = () => z.string().check(z.maxLength(100_000));
/** A plain-text body. */
export const text = () => z.string().check(z.maxLength(50_000));
/** Short labels (roles, tones, intents, audiences, focus, topic). */
export const label = () => z.string().check(z.maxLength(200));
/** A text message (AWS End User Messaging SMS takes at most 1,600 characters). */
export const smsText = () => z.string().check(z.maxLength(MAX_SMS_CHARS));
/** One address list: addresses separated by commas or semicolons. */
export const addressList = () => z.string().check(z.maxLength(4000));
/** Hours a shared link lives (1 hour to a week). */
export const expirationHours = () => int32({ min: 1, max: MAX_LINK_HOURS });
/** Deal documents to attach. */
export const documentIds = () => z.array(uuid()).check(z.maxLength(20));
