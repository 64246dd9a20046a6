/**
 * The local stand-in for API Gateway's route matching: a concrete method and path → the operation whose
 * route key matches, the way an HTTP API chooses (the route with the most literal segments wins), or
 * undefined for the `$default` route.
 */
import type { HttpMethod } from '#api/types';

/** What the router needs of an operation. */
export interface Routable {
  method: HttpMethod;
  path: string;
}

/** A matched route: the operation and its percent-decoded path parameters. */
export interface RouteMatch<T extends Routable> {
  op: T;
  pathParameters: Record<string, string>;
}

export type Router<T extends Routable> = (method: string, path: string) => RouteMatch<T> | undefined;

interface CompiledRoute<T> {
  op: T;
  regex: RegExp;
  names: string[];
  literalSegments: number;
}

/** Percent-decodes a path segment; a malformed escape (`%E0%A4%A`) is kept as written for validation to refuse. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Compiles the routes of `ops` once. */
export function createRouter<T extends Routable>(ops: readonly T[]): Router<T> {
  const compiled: CompiledRoute<T>[] = ops
    .map((op) => {
      const names: string[] = [];
      const segments = op.path.split('/');
      const pattern = segments
        .map((s) => {
          const m = /^\{(\w+)\}$/.exec(s);
          if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(m[1]);
          return '([^/]+)';
        })
        .join('/');
      return { op, regex: new RegExp(`^${pattern}$`), names, literalSegments: segments.filter((s) => !s.startsWith('{')).length };
    })
    // API Gateway prefers the most specific route: literal segments beat {params}.
    .sort((a, b) => b.literalSegments - a.literalSegments);

  return (method, path) => {
    for (const route of compiled) {
      if (route.op.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const pathParameters: Record<string, string> = {};
      route.names.forEach((name, i) => {
        pathParameters[name] = decodeSegment(m[i + 1]);
      });
      return { op: route.op, pathParameters };
    }
    return undefined;
  };
}
