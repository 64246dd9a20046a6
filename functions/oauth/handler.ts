/**
 * The OAuth 2.1 authorization server (spec "OAuth 2.1 flow") on the API's origin, the issuer; routes in
 * lib/public-routes.ts. In functions/oauth/: metadata.ts (discovery), register.ts, authorize.ts (sign-in and
 * consent), token.ts (token, revoke), responses.ts (OAuth's error shape, RFC 6749 §5.2, not the API's envelope).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { requestOrigin } from '#ports/public-url';
import { logger, observedHandler } from '#observability/powertools';
import { DISCOVERY_ROUTES } from './metadata.ts';
import { register } from './register.ts';
import { authorizeStart, authorizeStep } from './authorize.ts';
import { revoke, token } from './token.ts';
import { json, type Result } from './responses.ts';

/** Each route's handler, by route key (`origin`: the request's, the issuer). */
const ROUTES: Record<string, (event: APIGatewayProxyEventV2, origin: string) => Promise<Result>> = {
  ...DISCOVERY_ROUTES,
  'POST /oauth/register': (event) => register(event),
  'GET /oauth/authorize': authorizeStart,
  'POST /oauth/authorize': authorizeStep,
  'POST /oauth/token': token,
  'POST /oauth/revoke': revoke,
};

/** Dispatches on the route key (404 for another); an unexpected error is logged and answers 500 `server_error`. */
export const handler = observedHandler(async (event: APIGatewayProxyEventV2): Promise<Result> => {
  const origin = requestOrigin(event);
  const route = ROUTES[event.routeKey] ?? (async () => json(404, { error: 'not_found' }));
  try {
    return await route(event, origin);
  } catch (err) {
    logger.error('oauth request failed', { error: err instanceof Error ? err : String(err) });
    return json(500, { error: 'server_error', error_description: 'An unexpected error occurred.' });
  }
});
