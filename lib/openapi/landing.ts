/**
 * The landing document `GET /` and `GET /api/v1` answer (issue 25): where a newcomer or a client goes next — the
 * reference page, the OpenAPI document, the health check and, where it is served, the MCP endpoint. Relative links,
 * so the same document is right on any host (`npm start`, the deployed API, a custom domain).
 */

/** The document's shape. */
export interface Landing {
  name: string;
  version: 'v1';
  links: { docs: string; openapi: string; health: string; mcp?: string };
  /** What each link is, for a person reading the JSON. */
  description: string;
}

/**
 * @param opts.mcp whether this deployment serves the MCP endpoint (`npm start` does; the deployed stack does not yet)
 */
export function landingDocument(opts: { mcp: boolean }): Landing {
  return {
    name: 'Transaction-Coordination Service API',
    version: 'v1',
    links: { docs: '/docs', openapi: '/openapi.json', health: '/api/v1/health', ...(opts.mcp ? { mcp: '/mcp' } : {}) },
    description:
      'docs: the API reference; openapi: the OpenAPI 3.1 document; health: GET with an organization key (Authorization: Bearer mcp_at_…) or an OAuth token' +
      (opts.mcp ? '; mcp: the MCP endpoint (Streamable HTTP), same credentials' : ''),
  };
}

/** The paths that answer with it. */
export const LANDING_PATHS = ['/', '/api/v1'] as const;
