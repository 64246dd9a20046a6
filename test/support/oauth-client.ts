/**
 * An OAuth 2.1 client (oauth4webapi) running the authorization-code flow with PKCE against a running server (the
 * local or the assembly runtime): discovery, dynamic registration, sign-in and consent through the pages
 * (test/support/oauth-flow.ts), then the code exchange. Plain http is allowed (the runtimes serve http).
 */
import * as oauth from 'oauth4webapi';
import { signInAndConsent } from './oauth-flow.ts';

/**
 * Signs `email` in to `orgId` and returns the access token granted for `scope`.
 * @param mailDir where the server's SMTP sink stores mail (the one-time code is read from it)
 * @throws Error (oauth4webapi's) when a step of the flow fails
 */
export async function authorizationCodeToken(opts: { baseUrl: string; mailDir: string; email: string; orgId: string; scope: string; clientName?: string }): Promise<string> {
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const issuer = new URL(opts.baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const redirect = 'http://127.0.0.1:8976/callback';
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { client_name: opts.clientName ?? 'Closing Desk', redirect_uris: [redirect], token_endpoint_auth_method: 'none' }, insecure),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = { client_id: client.client_id, redirect_uri: redirect, response_type: 'code', scope: opts.scope, state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const callback = await signInAndConsent({ baseUrl: opts.baseUrl, mailDir: opts.mailDir, authorizeUrl: url.href, email: opts.email, orgId: opts.orgId });
  const response = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), response, redirect, verifier, insecure));
  return tokens.access_token;
}
