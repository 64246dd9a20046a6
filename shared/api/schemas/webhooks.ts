/** Subscription fields shared by create and replace (spec "Webhook subscription"). */
import * as z from '#api/zod';
import { boundedRecord } from '#api/schemas/free-form';
import { displayName } from '#api/schemas/names';

/** Most custom headers a subscription sends. */
export const MAX_CUSTOM_HEADERS = 20;

/** The subscription's display name (NFC, no control characters). */
export const name = () => displayName(200);
export const url = () => z.url('must be a URL').check(z.maxLength(2048));
/** Event types, or `*` for all; at least one. */
export const events = () => z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(100));
export const description = () => z.string().check(z.maxLength(2000));
/**
 * Custom request headers sent with each delivery: at most `MAX_CUSTOM_HEADERS`; names are checked as RFC 9110
 * tokens and values as sendable bytes by shared/events/subscription-rules.ts.
 */
export const headers = () => boundedRecord(z.string().check(z.maxLength(256)), z.string().check(z.maxLength(4096)), MAX_CUSTOM_HEADERS);
