/**
 * The static API reference page: Redoc's standalone bundle (vendored from the `redoc` npm package, served next
 * to the page, never from a CDN) rendering the OpenAPI document.
 */
import { createRequire } from 'node:module';

/** File name the page loads the renderer from, relative to the page. */
export const RENDERER_FILE = 'redoc.standalone.js';

/** Absolute path of Redoc's standalone bundle in node_modules. */
export const rendererPath = (): string => createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The page's Content-Security-Policy: everything from this origin only (Redoc's attribution logo would
 * otherwise load from cdn.redoc.ly). Inline styles and blob: workers are Redoc's own (styled-components, search).
 */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'";

/**
 * @param specUrl where the page fetches the document, relative to the page (e.g. `openapi.json`)
 * @returns the HTML page
 */
export function referencePage(opts: { specUrl: string; title: string; rendererUrl?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escapeHtml(opts.title)} — reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="${escapeHtml(opts.specUrl)}" hide-download-button="false" path-in-middle-panel="true"></redoc>
<script src="${escapeHtml(opts.rendererUrl ?? RENDERER_FILE)}"></script>
</body>
</html>
`;
}
