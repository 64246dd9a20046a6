/**
 * The local server's answer to a request Node's HTTP parser refuses before any handler runs (bad request
 * line, bad header bytes, headers over the size limit, a body framing error, a request that is too slow).
 * Node's default writes a bare `400 Bad Request` without a body; this writes the spec's envelope instead
 * (spec "Errors": every 4xx is `{error:{code,message,fields?}}`) and closes the connection, since the rest
 * of the byte stream cannot be trusted. API Gateway answers such requests itself in AWS; no handler runs
 * there either.
 *
 * Code: `validation_error` (the spec's code for an invalid request), with `fields.request` saying what is
 * wrong; the status stays the one HTTP defines for the failure: 400, 408 (RFC 9110 §15.5.9) or 431 (RFC 6585 §5).
 */
import type { Socket } from 'node:net';

/** Status and reason of a parser error code (`HPE_*` from llhttp, or Node's `ERR_HTTP_REQUEST_TIMEOUT`). */
export function clientErrorStatus(code: string | undefined): { status: number; reason: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, reason: 'request headers are too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT') return { status: 408, reason: 'request was not received in time' };
  return { status: 400, reason: 'is not a well-formed HTTP/1.1 request' };
}

const REASON_PHRASES: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Why an HTTP/1.1 request without a Host header is refused (RFC 9112 §3.2). */
export const MISSING_HOST = 'has no Host header (RFC 9112 §3.2)';

/** The envelope of a malformed request. @param reason what is wrong, for `fields.request` */
export const malformedRequestBody = (reason: string): string =>
  JSON.stringify({ error: { code: 'validation_error', message: `Malformed HTTP request: ${reason}.`, fields: { request: reason } } });

/** The raw HTTP/1.1 response for a parser error, envelope included. */
export function clientErrorResponse(code: string | undefined): string {
  const { status, reason } = clientErrorStatus(code);
  const body = malformedRequestBody(reason);
  return (
    `HTTP/1.1 ${status} ${REASON_PHRASES[status]}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * `clientError` listener of the local HTTP server: answers with the envelope when the socket can still be
 * written to (not for a reset connection, nor once a response has started), then closes it.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(err.code));
}
