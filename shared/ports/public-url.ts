/**
 * The base URL people outside the team open (shared document links `GET /l/{token}`, lib/public-routes.ts): the
 * public routes are served by the same HTTP API as `/api/v1`. `PUBLIC_BASE_URL` names it when set (a custom
 * domain in AWS; the local runtime sets its own address); otherwise it is the HTTPS origin of the request being
 * served (API Gateway's `requestContext.domainName`), so no function needs the API's URL at deploy time.
 */
import { config } from '#ports/config';

/**
 * @param requestDomain the domain the current request came in on (`requestContext.domainName`)
 * @returns an origin without a trailing slash, e.g. `https://abc123.execute-api.us-east-1.amazonaws.com`
 */
export function publicBaseUrl(requestDomain: string): string {
  const configured = config.publicBaseUrl;
  return (configured || `https://${requestDomain}`).replace(/\/+$/, '');
}

/**
 * The origin a request came in on, which is also the OAuth issuer and the resource identifier of its tokens:
 * `OAUTH_ISSUER` when set (the stack gives every API function and the authorization server the same), else
 * `PUBLIC_BASE_URL`, else the request's scheme (`x-forwarded-proto`, which API Gateway sets; https when absent) and
 * domain.
 */
export function requestOrigin(event: { headers?: Record<string, string | undefined>; requestContext: { domainName: string } }): string {
  const configured = config.oauthIssuer ?? config.publicBaseUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const proto = event.headers?.['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${proto}://${event.requestContext.domainName}`;
}
