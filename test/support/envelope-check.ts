/**
 * The spec's error envelope (spec "Errors"): every 4xx/5xx body is exactly `{error:{code,message,fields?}}`,
 * `code` is the one its status stands for, `fields` (validation errors only) maps names to messages.
 */

/** Status → the codes it may carry: the spec's codes plus this service's 501 and 503 (shared/http/errors.ts). */
export const CODES_BY_STATUS: Readonly<Record<number, readonly string[]>> = {
  400: ['validation_error'],
  401: ['unauthorized'],
  403: ['insufficient_scope', 'forbidden'],
  404: ['not_found'],
  408: ['validation_error'],
  409: ['conflict'],
  422: ['validation_error'],
  429: ['rate_limited'],
  431: ['validation_error'],
  500: ['internal_error'],
  501: ['not_implemented'],
  503: ['service_unavailable'],
};

/** What is wrong with an error response, or undefined when it is a well-formed envelope. */
export function envelopeProblem(status: number, contentType: string | undefined, text: string): string | undefined {
  if (!/^application\/json/.test(contentType ?? '')) return `content-type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'error') return 'body is not {error}';
  const error = (body as { error: Record<string, unknown> }).error;
  const keys = Object.keys(error ?? {});
  if (!keys.includes('code') || !keys.includes('message') || keys.some((k) => !['code', 'message', 'fields'].includes(k))) return `error has keys ${keys.join(',')}`;
  const codes = CODES_BY_STATUS[status];
  if (!codes) return `status ${status} is not one the API answers`;
  if (!codes.includes(error.code as string)) return `code ${String(error.code)} for status ${status}`;
  if (typeof error.message !== 'string' || !error.message) return 'message is not a non-empty string';
  if (error.code === 'validation_error') {
    const fields = error.fields as Record<string, unknown> | undefined;
    if (typeof fields !== 'object' || fields === null || !Object.keys(fields).length) return 'validation_error without fields';
    if (Object.values(fields).some((m) => typeof m !== 'string' || !m)) return 'a field message is not a non-empty string';
  } else if (keys.includes('fields')) return `fields on ${String(error.code)}`;
  return undefined;
}
