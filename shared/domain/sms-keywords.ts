/**
 * SMS keywords every sender must honour (CTIA Messaging Principles and Best Practices; AWS End User Messaging's
 * default opt-out and help keywords): a text that is only one of them, in any case, is a command, not a message.
 */

export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const;
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

export type SmsKeyword = { kind: 'opt_out' | 'opt_in' | 'help'; keyword: string };

/** The keyword a text is, or undefined for an ordinary message. */
export function smsKeyword(text: string): SmsKeyword | undefined {
  const word = text.trim().replace(/[.!]+$/, '').toUpperCase();
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return { kind: 'opt_out', keyword: word };
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return { kind: 'opt_in', keyword: word };
  if ((HELP_KEYWORDS as readonly string[]).includes(word)) return { kind: 'help', keyword: word };
  return undefined;
}

/** The reply to HELP (brand, purpose, how to stop: CTIA's required content). */
export const HELP_REPLY = 'Transaction updates from your real-estate team. Msg&data rates may apply. Reply STOP to opt out.';
/** The confirmation of an opt-out; nothing else is sent to the number afterwards. */
export const OPT_OUT_REPLY = 'You are unsubscribed and will receive no more texts. Reply START to resubscribe.';
/** The confirmation of an opt-in. */
export const OPT_IN_REPLY = 'You are subscribed to transaction updates again. Reply STOP to opt out.';
