/**
 * The assembly runtime's API Gateway HTTP API: the routes (`AWS::ApiGatewayV2::Route` route keys, `{param}` and
 * greedy `{proxy+}` segments, `ANY`, `$default`) and their `AWS_PROXY` integrations read from the template, each
 * request turned into the payload 2.0 event (lib/local/api-event.ts `toApiEvent`) and passed to the integration's
 * function. As API Gateway does: a function error answers 500 `{"message":"Internal Server Error"}`, a timeout 503,
 * a response that is not an object with `statusCode` is sent as a 200 JSON body.
 */
import http from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { requestUrl, toApiEvent } from '#lib/local/api-event';
import type { Routable, RouteMatch } from '#lib/local/router';
import type { LoadedTemplate } from './cloud-assembly.ts';

/** One route: its key and the ARN of the function its integration invokes. */
export interface ApiRoute {
  routeKey: string;
  functionArn: string;
}

/** Routes of every `AWS::ApiGatewayV2::Route` of `template` (all APIs). */
export function routesOf(template: LoadedTemplate): ApiRoute[] {
  const integrations = new Map<string, string>();
  for (const id of template.ofType('AWS::ApiGatewayV2::Integration')) {
    integrations.set(String(template.resolve({ Ref: id })), String(template.resolve(template.resources[id]!.Properties!.IntegrationUri)));
  }
  return template.ofType('AWS::ApiGatewayV2::Route').map((id) => {
    const props = template.resolve(template.resources[id]!.Properties) as { RouteKey: string; Target: string };
    const fn = integrations.get(props.Target.replace(/^integrations\//, ''));
    if (!fn) throw new Error(`route ${props.RouteKey}: integration ${props.Target} not found`);
    return { routeKey: props.RouteKey, functionArn: fn };
  });
}

interface Compiled {
  route: ApiRoute;
  method: string;
  regex: RegExp;
  names: string[];
  literals: number;
}

/** API Gateway's choice: the route with the most literal segments, then a greedy one, then `$default`. */
export function apiRouter(routes: readonly ApiRoute[]): (method: string, path: string) => { route: ApiRoute; params: Record<string, string> } | undefined {
  const compiled: Compiled[] = routes
    .filter((r) => r.routeKey !== '$default')
    .map((route) => {
      const [method, path] = route.routeKey.split(' ') as [string, string];
      const names: string[] = [];
      const pattern = path
        .split('/')
        .map((s) => {
          const m = /^\{(\w+)(\+?)\}$/.exec(s);
          if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(m[1]!);
          return m[2] ? '(.+)' : '([^/]+)';
        })
        .join('/');
      return { route, method, regex: new RegExp(`^${pattern}$`), names, literals: path.split('/').filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.literals - a.literals);
  const fallback = routes.find((r) => r.routeKey === '$default');
  return (method, path) => {
    for (const c of compiled) {
      if (c.method !== method && c.method !== 'ANY') continue;
      const m = c.regex.exec(path);
      if (!m) continue;
      return { route: c.route, params: Object.fromEntries(c.names.map((n, i) => [n, safeDecode(m[i + 1]!)])) };
    }
    return fallback ? { route: fallback, params: {} } : undefined;
  };
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export interface AssemblyHttpApi {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the HTTP API on 127.0.0.1 (`port` 0 picks one). Routes are given later (`setRoutes`), since the
 * template's values depend on the base URL (`ApiEndpoint`).
 * @param invoke invokes a function ARN with an event; rejects on a function error
 */
export async function startAssemblyHttpApi(opts: {
  port: number;
  invoke(functionArn: string, event: unknown, route: string): Promise<unknown>;
}): Promise<AssemblyHttpApi & { setRoutes(routes: ApiRoute[]): void }> {
  let match: ReturnType<typeof apiRouter> = () => undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = requestUrl(req.url);
      const found = match((req.method ?? 'GET').toUpperCase(), url.pathname);
      if (!found) return send(res, { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"Not Found"}' });
      const router = (): RouteMatch<Routable> | undefined =>
        found.route.routeKey === '$default' ? undefined : { op: { method: found.route.routeKey.split(' ')[0] as Routable['method'], path: found.route.routeKey.split(' ')[1]! }, pathParameters: found.params };
      const { event } = toApiEvent(req, Buffer.concat(chunks), router);
      try {
        const result = await opts.invoke(found.route.functionArn, event, found.route.routeKey);
        send(res, isStructured(result) ? result : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) });
      } catch (err) {
        const timedOut = (err as { errorType?: string }).errorType === 'Sandbox.Timedout';
        send(res, { statusCode: timedOut ? 503 : 500, headers: { 'content-type': 'application/json' }, body: timedOut ? '{"message":"Service Unavailable"}' : '{"message":"Internal Server Error"}' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    setRoutes: (routes) => void (match = apiRouter(routes)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const isStructured = (v: unknown): v is APIGatewayProxyStructuredResultV2 => typeof v === 'object' && v !== null && 'statusCode' in v;

function send(res: http.ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: http.OutgoingHttpHeaders = { ...(result.headers as http.OutgoingHttpHeaders) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : result.body);
}
