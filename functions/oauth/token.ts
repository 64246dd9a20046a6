/**
 * The OAuth server's token endpoints: `POST /oauth/token` and `POST /oauth/revoke` (RFC 7009); the grants' rules
 * are in shared/use-cases/oauth.ts.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { getClient } from '#db/oauth';
import { clockNow } from '#ports/clock';
import { exchangeCode, OAuthError, refreshTokens, revokeToken } from '#use-cases/oauth';
import { formOf, json, oauthError, type Result } from './responses.ts';

/**
 * `POST /oauth/token`: the `authorization_code` and `refresh_token` grants (shared/use-cases/oauth.ts).
 * @returns 200 with the tokens, or OAuth's error (401 `invalid_client` for an unknown client)
 */
export async function token(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const clientId = form.get('client_id') ?? '';
  if (!(await getClient(clientId))) return oauthError(new OAuthError('invalid_client', 'Unknown client_id.', 401));
  const now = clockNow();
  try {
    switch (form.get('grant_type')) {
      case 'authorization_code':
        return json(200, await exchangeCode({ code: form.get('code') ?? '', codeVerifier: form.get('code_verifier') ?? '', clientId, redirectUri: form.get('redirect_uri') ?? '' }, origin, now), { pragma: 'no-cache' });
      case 'refresh_token':
        return json(200, await refreshTokens({ refreshToken: form.get('refresh_token') ?? '', clientId, ...(form.has('scope') ? { scope: form.get('scope')! } : {}) }, origin, now), { pragma: 'no-cache' });
      default:
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
  } catch (err) {
    if (err instanceof OAuthError) return oauthError(err);
    throw err;
  }
}

/** `POST /oauth/revoke` (RFC 7009). */
export async function revoke(event: APIGatewayProxyEventV2, origin: string): Promise<Result> {
  const form = formOf(event);
  const value = form.get('token');
  if (!value) return oauthError(new OAuthError('invalid_request', 'token is required.'));
  await revokeToken(value, form.get('client_id') ?? undefined, origin, clockNow());
  // RFC 7009 §2.2: 200 whether or not the token was valid.
  return { statusCode: 200, headers: { 'cache-control': 'no-store', 'access-control-allow-origin': '*' }, body: '' };
}
