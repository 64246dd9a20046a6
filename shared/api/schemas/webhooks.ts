/** Subscription fields shared by create and replace (spec "Webhook subscription"). */
import * as z from '#api/zod';

export const name = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
export const url = () => z.url('must be a URL').check(z.maxLength(2048));
/** Event types, or `*` for all; at least one. */
export const events = () => z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(100));
export const description = () => z.string().check(z.maxLength(2000));
/** Custom request headers sent with each delivery. */
export const headers = () => z.record(z.string().check(z.maxLength(256)), z.string().check(z.maxLength(4096)));
