/**
 * The OAuth server's discovery documents (functions/oauth/handler.ts serves them under `/.well-known/`): RFC 8414
 * authorization server metadata (S256 only, auth method `none`), RFC 9728 protected resource metadata of the API and
 * the MCP endpoint, and the public signing key (RFC 7517 JWKS). Each may be cached 5 minutes.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { tokenSigner } from '#ports/token-signer';
import { OAUTH_SCOPES } from '#use-cases/oauth';
import { json, type Result } from './responses.ts';

/** RFC 8414 §2 metadata. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** RFC 9728 §2 metadata of one protected resource of this origin. */
export function protectedResourceMetadata(origin: string, resource: string) {
  return {
    resource,
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Transaction-Coordination Service API',
  };
}

const CACHED = { 'cache-control': 'max-age=300' };

/** The discovery routes, by route key (`origin`: the request's, the issuer). */
export const DISCOVERY_ROUTES: Readonly<Record<string, (event: APIGatewayProxyEventV2, origin: string) => Promise<Result>>> = {
  'GET /.well-known/oauth-authorization-server': async (_e, origin) => json(200, authorizationServerMetadata(origin), CACHED),
  'GET /.well-known/oauth-protected-resource': async (_e, origin) => json(200, protectedResourceMetadata(origin, origin), CACHED),
  'GET /.well-known/oauth-protected-resource/api/v1': async (_e, origin) => json(200, protectedResourceMetadata(origin, `${origin}/api/v1`), CACHED),
  'GET /.well-known/oauth-protected-resource/mcp': async (_e, origin) => json(200, protectedResourceMetadata(origin, `${origin}/mcp`), CACHED),
  'GET /.well-known/jwks.json': async () => json(200, await (await tokenSigner()).publicJwks(), CACHED),
};
