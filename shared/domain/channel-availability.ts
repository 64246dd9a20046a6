/**
 * Whether a deal's participant can be reached on each channel (spec "Messaging": recipients with per-channel
 * availability). Email needs an address that is not suppressed (a permanent bounce or a complaint); SMS needs a
 * number that can receive texts (mobile, E.164 or US) that has not opted out (STOP). The same rules the send paths
 * enforce, so an available channel is one a send will not refuse for the recipient's sake. Telling a textable
 * number loads shared/domain/textable-phone.ts on first use (a chunk beside the messaging bundle:
 * lib/bundling/lazy-modules.ts), so the SMS functions are async.
 */

export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** Why a channel is unavailable. */
export type UnavailableReason = 'no_address' | 'suppressed' | 'opted_out' | 'not_textable';

/** One channel of one participant. */
export interface ChannelAvailability {
  /** The address a send would use (email as stored; SMS in E.164 when textable), or null. */
  address: string | null;
  available: boolean;
  /** Null when available. */
  reason: UnavailableReason | null;
}

/** What the consent records say, by address: lower-cased suppressed emails and opted-out E.164 numbers. */
export interface ConsentState {
  suppressedEmails: ReadonlySet<string>;
  optedOutPhones: ReadonlySet<string>;
}

const unavailable = (address: string | null, reason: UnavailableReason): ChannelAvailability => ({ address, available: false, reason });

/** Email availability of `email` given the suppressions. */
export function emailAvailability(email: string | null, consent: ConsentState): ChannelAvailability {
  if (!email) return unavailable(null, 'no_address');
  if (consent.suppressedEmails.has(email.toLowerCase())) return unavailable(email, 'suppressed');
  return { address: email, available: true, reason: null };
}

/** SMS availability of `phone` given the opt-outs. */
export async function smsAvailability(phone: string | null, consent: ConsentState): Promise<ChannelAvailability> {
  if (!phone) return unavailable(null, 'no_address');
  const { toE164 } = await import('#domain/textable-phone');
  const e164 = toE164(phone);
  if (!e164) return unavailable(phone, 'not_textable');
  if (consent.optedOutPhones.has(e164)) return unavailable(e164, 'opted_out');
  return { address: e164, available: true, reason: null };
}

/** The numbers whose opt-out matters for `phones` (the textable ones, in E.164, without repeats). */
export async function textableNumbers(phones: readonly (string | null)[]): Promise<string[]> {
  const { toE164 } = await import('#domain/textable-phone');
  return [...new Set(phones.map((p) => (p ? toE164(p) : undefined)).filter((p): p is string => Boolean(p)))];
}
