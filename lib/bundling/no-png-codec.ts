/**
 * Bundling alias for `@pdf-lib/upng` (pdf-lib's PNG decoder, ~25 KB minified) in Lambda bundles: no deployed
 * function embeds a PNG in a PDF (the communication-log PDF is text and lines,
 * shared/use-cases/messaging/communication-log-pdf.ts). `PDFDocument.embedPng` there throws. Used only by esbuild
 * (lib/service-function.ts and bench/bundles.ts).
 */
const absent = (): never => {
  throw new Error('PNG embedding is not bundled into deployed functions (lib/bundling/no-png-codec.ts).');
};

export default { decode: absent, toRGBA8: absent, encode: absent };
