/**
 * The MCP endpoint over the operations registry, as the local runtime serves it (lib/local/self-description.ts):
 * the tools are the registry's implemented operations (lib/mcp/tools.ts), the endpoint itself is lib/mcp/endpoint.ts,
 * which the deployed function (lib/mcp/lambda.ts) runs too.
 */
import type { RegisteredOperation } from '#api/operation';
import { mcpEndpoint, MCP_PATH, type Dispatch } from '#lib/mcp/endpoint';
import { toolEntries } from '#lib/mcp/tools';

export { MCP_PATH, type Dispatch };

/** What the endpoint needs: the registry's operations and how to run one. */
export interface McpEndpointOptions {
  ops: readonly RegisteredOperation[];
  dispatch: Dispatch;
  /** The server's name and version in `initialize`. */
  version: string;
}

/**
 * A web-standard handler of the MCP endpoint (`Request` in, `Response` out) whose tools are `opts.ops`' implemented
 * operations: 401 without a bearer credential; otherwise one stateless Streamable HTTP exchange.
 * @throws Error when an operation's arguments are ambiguous (lib/mcp/tools.ts `toolOf`)
 */
export const mcpHandler = (opts: McpEndpointOptions): ((req: Request) => Promise<Response>) => mcpEndpoint({ tools: toolEntries(opts.ops), dispatch: opts.dispatch, version: opts.version });
