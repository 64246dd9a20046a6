/**
 * Routes outside `/api/v1` that people open without credentials (shared document links, the intake form, the client
 * portal and the disclosure recipient's page, and the stylesheet those pages and the OAuth pages share). Each is
 * served by a worker's function, `functions/<worker>/handler.ts`; the HTTP API gets one route per entry
 * (lib/http-api.ts) and the local server the same (lib/local/http-server.ts).
 */
import type { HttpMethod } from '#api/types';

export interface PublicRoute {
  method: HttpMethod;
  /** API Gateway path with `{param}` placeholders. */
  path: string;
  /** Which page of the worker, in construct ids (`IntakeForm`); none for the worker's first route, the shared link. */
  page?: string;
  /** The folder under functions/ whose handler serves it. */
  worker: 'public-links' | 'oauth';
  /** Why it needs no credentials and what authorizes a request instead (the cdk-nag APIG4 acknowledgment's reason). */
  unauthenticatedBecause: string;
}

export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  {
    method: 'GET',
    path: '/l/{token}',
    worker: 'public-links',
    unauthenticatedBecause:
      'A shared document link is opened by people outside the organization (sent by text or email), who have no credentials. The ' +
      'unguessable token in the path (256 random bits, stored only as its SHA-256, expiring, revocable) is the authorization; an ' +
      'unknown, expired or revoked token gets the same 404, and a live one only a 5-minute download URL.',
  },
  ...(['GET', 'POST'] as const).map((method) => ({
    method,
    path: '/f/{token}',
    page: 'IntakeForm',
    worker: 'public-links' as const,
    unauthenticatedBecause:
      "A deal's intake form is filled in by its client, who has no credentials. The unguessable token in the path (256 random bits, " +
      'stored only as its SHA-256, expiring) is the authorization; an unknown or expired token gets the same 404, and a live one only ' +
      "that deal's form (a POST stores one submission).",
  })),
  {
    method: 'GET',
    path: '/p/{token}',
    page: 'Portal',
    worker: 'public-links',
    unauthenticatedBecause:
      "A deal's client portal is opened by the client, who has no credentials. The unguessable token in the path (256 random bits, " +
      "stored only as its SHA-256, expiring) is the authorization; an unknown or expired token gets the same 404, and a live one a read-only page of that deal.",
  },
  ...(['GET', 'POST'] as const).map((method) => ({
    method,
    path: '/d/{token}',
    page: 'Disclosure',
    worker: 'public-links' as const,
    unauthenticatedBecause:
      'A disclosure recipient is outside the organization and has no credentials. The unguessable token in the path (256 random bits, ' +
      'stored only as its SHA-256, expiring with the recipient) is the authorization; an unknown, expired or revoked recipient gets the ' +
      'same 404, and a live one the package page (a POST records an acknowledgement or answers a 5-minute download URL).',
  })),
  {
    method: 'GET',
    path: '/assets/pages.css',
    page: 'Stylesheet',
    worker: 'public-links',
    unauthenticatedBecause:
      'The one stylesheet of the public and OAuth pages, loaded by browsers without credentials (the pages allow only same-origin ' +
      'styles). It holds no data: fixed rules and the accent colour given in its query, checked to be six hex digits.',
  },
  ...oauthRoutes(),
];

/** The OAuth 2.1 authorization server's routes (functions/oauth/handler.ts): a client has no token before it gets one. */
function oauthRoutes(): PublicRoute[] {
  const metadata = 'Discovery metadata and the public signing key are public by definition (RFC 8414, RFC 9728, RFC 7517); they hold no secret.';
  const route = (method: HttpMethod, path: string, why: string): PublicRoute => ({ method, path, worker: 'oauth', unauthenticatedBecause: why });
  return [
    route('GET', '/.well-known/oauth-authorization-server', metadata),
    route('GET', '/.well-known/oauth-protected-resource', metadata),
    route('GET', '/.well-known/oauth-protected-resource/api/v1', metadata),
    route('GET', '/.well-known/oauth-protected-resource/mcp', metadata),
    route('GET', '/.well-known/jwks.json', metadata),
    route('POST', '/oauth/register', 'RFC 7591 dynamic registration of public clients is open by design (spec "OAuth 2.1 flow"); a registration grants nothing until a user signs in and consents.'),
    route('GET', '/oauth/authorize', 'The sign-in page a user opens before any credential exists; the user then proves their email with a one-time code.'),
    route('POST', '/oauth/authorize', 'The sign-in and consent steps: authorized by the unguessable login-session id (256 bits, 15 minutes, single use) and the mailed one-time code.'),
    route('POST', '/oauth/token', 'Public clients authenticate with the authorization code and its PKCE verifier, or with a rotating refresh token (OAuth 2.1 §2.4); no client secret exists.'),
    route('POST', '/oauth/revoke', 'RFC 7009 revocation: presenting the token to revoke is the authorization.'),
  ];
}
