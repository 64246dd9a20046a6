/**
 * Bundling alias for `pako` in Lambda bundles. Its only users there are pdf-lib and its standard-fonts package
 * (the report-builder worker, the OCR step's page count): they call `pako.deflate(bytes)` (content streams,
 * `FlateDecode`) and `pako.inflate(bytes)` (the fonts' packed metrics), both in the zlib format (RFC 1950), which
 * Node's own zlib writes and reads. pako's JavaScript deflate and inflate are ~45 KB minified. Used only by esbuild
 * (lib/service-function.ts and bench/bundles.ts); test/unit/bundling-pdf-lib.test.ts checks it against pako.
 */
import { deflateSync, inflateSync } from 'node:zlib';

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** `data` deflated in the zlib format (pako's default: level 6). */
export const deflate = (data: Uint8Array): Uint8Array => bytes(deflateSync(data));

/** zlib-format `data` inflated. @throws Error on data that is not zlib-format */
export const inflate = (data: Uint8Array): Uint8Array => bytes(inflateSync(data));

export default { deflate, inflate };
