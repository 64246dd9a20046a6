/**
 * `POST /oauth/register`: RFC 7591 dynamic registration of a public client (at most 5 redirect URIs, matched
 * exactly; auth method `none`; grants `authorization_code` and `refresh_token` only).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { registerClient } from '#db/oauth';
import { clockNow } from '#ports/clock';
import { OAuthError } from '#use-cases/oauth';
import { json, oauthError, type Result } from './responses.ts';

/** Spec "Limits": at most 5 redirect URIs per client. */
export const MAX_REDIRECT_URIS = 5;

/**
 * A redirect URI a client may register: absolute, no fragment; `https`, or `http` only on a loopback host
 * (RFC 8252 §7.3), or a private-use scheme with a dot in it (RFC 8252 §7.1, e.g. `com.example.app:/cb`).
 */
export function acceptableRedirectUri(uri: string): boolean {
  if (typeof uri !== 'string' || uri.length > 2000) return false;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash || uri.includes('#')) return false;
  if (u.protocol === 'https:') return true;
  if (u.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol);
}

/** Registers the client the JSON body describes. @returns 201 with its `client_id`, or 400 `invalid_*` */
export async function register(event: APIGatewayProxyEventV2): Promise<Result> {
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '');
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new Error();
  } catch {
    return oauthError(new OAuthError('invalid_client_metadata', 'The body must be a JSON object.'));
  }
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return oauthError(new OAuthError('invalid_redirect_uri', 'redirect_uris must list 1 to 5 URIs.'));
  if (uris.length > MAX_REDIRECT_URIS) return oauthError(new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect URIs per client.`));
  const bad = uris.find((u) => !acceptableRedirectUri(u as string));
  if (bad !== undefined) return oauthError(new OAuthError('invalid_redirect_uri', `Not an acceptable redirect URI: ${String(bad).slice(0, 200)} (https, http on a loopback host, or a private-use scheme; no fragment).`));
  const name = meta.client_name;
  if (typeof name !== 'string' || !name.trim() || name.length > 100) return oauthError(new OAuthError('invalid_client_metadata', 'client_name is required (1 to 100 characters).'));
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
    return oauthError(new OAuthError('invalid_client_metadata', "Only public clients are registered: token_endpoint_auth_method must be 'none'."));
  }
  const grantTypes = meta.grant_types;
  if (grantTypes !== undefined && (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    return oauthError(new OAuthError('invalid_client_metadata', 'grant_types may only contain authorization_code and refresh_token.'));
  }
  const client = await registerClient({ clientName: name.trim(), redirectUris: [...new Set(uris as string[])] }, clockNow());
  return json(201, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
}
