/**
 * Email address lists as the API takes them (`toEmail`, `ccAddresses`, `bccAddresses`: one string, addresses
 * separated by commas or semicolons). Addresses follow the WHATWG HTML "valid email address" rule (the practical
 * subset of RFC 5322 addr-spec that browsers accept), at most 254 characters (RFC 5321 §4.5.3.1.3 path limit).
 */

/** WHATWG HTML §4.10.5.1.5 valid email address. */
const ADDRESS = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** At most this many recipients in all (SES's limit is 50 per message). */
export const MAX_RECIPIENTS = 50;

/** Total attachment bytes per email (base64 in MIME adds a third; SES v2 takes 40 MB). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** True for one valid address. */
export const isEmailAddress = (s: string): boolean => s.length <= 254 && ADDRESS.test(s);

/**
 * Splits a list into addresses (trimmed, de-duplicated case-insensitively, order kept).
 * @returns the addresses and the entries that are not addresses
 */
export function parseAddressList(list: string | null | undefined): { addresses: string[]; invalid: string[] } {
  const addresses: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const raw of (list ?? '').split(/[,;]/)) {
    const a = raw.trim();
    if (!a) continue;
    if (!isEmailAddress(a)) invalid.push(a);
    else if (!seen.has(a.toLowerCase())) (seen.add(a.toLowerCase()), addresses.push(a));
  }
  return { addresses, invalid };
}

/** The recipient fields of a send request (`toEmail`, `ccAddresses`, `bccAddresses`), as given. */
export interface RecipientFields {
  toEmail?: string | null;
  ccAddresses?: string | null;
  bccAddresses?: string | null;
}

/**
 * Parses the three lists of a send request.
 * @returns the addresses of each list, and a message per field that holds a non-address or, for `toEmail`, none at
 *   all when `requireTo` (empty when all is well)
 */
export function parseRecipientFields(input: RecipientFields, requireTo: boolean): { to: string[]; cc: string[]; bcc: string[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const parse = (field: keyof RecipientFields) => {
    const { addresses, invalid } = parseAddressList(input[field]);
    if (invalid.length) errors[field] = `is not a list of email addresses: ${invalid.slice(0, 3).join(', ')}`;
    return addresses;
  };
  const lists = { to: parse('toEmail'), cc: parse('ccAddresses'), bcc: parse('bccAddresses') };
  if (requireTo && !lists.to.length) errors.toEmail ??= 'is required: at least one recipient';
  return { ...lists, errors };
}
