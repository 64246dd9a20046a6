/**
 * Routes outside `/api/v1` that people open without credentials (shared document links; later the intake, portal
 * and disclosure pages). Each is served by its own function, `functions/<worker>/handler.ts`; the HTTP API gets one
 * route per entry (lib/http-api.ts) and the local server the same (lib/local/http-server.ts).
 */
import type { HttpMethod } from '#api/types';

export interface PublicRoute {
  method: HttpMethod;
  /** API Gateway path with `{param}` placeholders. */
  path: string;
  /** The folder under functions/ whose handler serves it. */
  worker: 'public-links';
}

export const PUBLIC_ROUTES: readonly PublicRoute[] = [{ method: 'GET', path: '/l/{token}', worker: 'public-links' }];
