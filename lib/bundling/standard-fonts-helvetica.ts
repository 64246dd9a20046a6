/**
 * Bundling alias for `@pdf-lib/standard-fonts` in Lambda bundles: the package's API as pdf-lib uses it (`Font`,
 * `FontNames`, `Encodings`) with the metrics of Helvetica and Helvetica-Bold only, the two fonts the
 * communication-log PDF is set in (shared/use-cases/messaging/communication-log-pdf.ts). The other twelve standard
 * fonts' packed metrics are ~90 KB minified, and the package's `Font.load` reaches all of them. Loading another font
 * throws. The files below are the package's own (relative paths: the alias also catches the package's subpaths).
 * Used only by esbuild (lib/service-function.ts and bench/bundles.ts); test/unit/bundling-pdf-lib.test.ts checks it
 * against the package.
 */
import { decompressJson } from '../../node_modules/@pdf-lib/standard-fonts/es/utils.js';
import helvetica from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica.compressed.json';
import helveticaBold from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica-Bold.compressed.json';

export { Encodings } from '../../node_modules/@pdf-lib/standard-fonts/es/Encoding.js';

/** The fourteen standard font names (PDF 32000-1:2008, 9.6.2.2), as the package names them. */
export enum FontNames {
  Courier = 'Courier',
  CourierBold = 'Courier-Bold',
  CourierOblique = 'Courier-Oblique',
  CourierBoldOblique = 'Courier-BoldOblique',
  Helvetica = 'Helvetica',
  HelveticaBold = 'Helvetica-Bold',
  HelveticaOblique = 'Helvetica-Oblique',
  HelveticaBoldOblique = 'Helvetica-BoldOblique',
  TimesRoman = 'Times-Roman',
  TimesRomanBold = 'Times-Bold',
  TimesRomanItalic = 'Times-Italic',
  TimesRomanBoldItalic = 'Times-BoldItalic',
  Symbol = 'Symbol',
  ZapfDingbats = 'ZapfDingbats',
}

const packed: Partial<Record<string, string>> = { [FontNames.Helvetica]: helvetica, [FontNames.HelveticaBold]: helveticaBold };
const cache = new Map<string, Font>();

/** A font's AFM metrics, as the package's `Font` holds them (the fields pdf-lib's `StandardFontEmbedder` reads). */
export class Font {
  [field: string]: unknown;
  declare CharMetrics: { N: string; WX: number }[];
  declare KernPairs: [string, string, number][];
  declare CharWidths: Record<string, number>;
  declare KernPairXAmounts: Record<string, Record<string, number>>;

  /** @throws Error for a font other than Helvetica and Helvetica-Bold */
  static load(fontName: string): Font {
    const cached = cache.get(fontName);
    if (cached) return cached;
    const json = packed[fontName];
    if (json === undefined) throw new Error(`The standard font ${fontName} is not bundled (lib/bundling/standard-fonts-helvetica.ts): Helvetica and Helvetica-Bold only.`);
    const font: Font = Object.assign(new Font(), JSON.parse(decompressJson(json)) as object);
    font.CharWidths = Object.fromEntries(font.CharMetrics.map((m) => [m.N, m.WX]));
    font.KernPairXAmounts = {};
    for (const [left, right, width] of font.KernPairs) (font.KernPairXAmounts[left] ??= {})[right] = width;
    cache.set(fontName, font);
    return font;
  }

  getWidthOfGlyph = (glyphName: string): number => this.CharWidths[glyphName];

  getXAxisKerningForPair = (leftGlyphName: string, rightGlyphName: string): number | undefined => (this.KernPairXAmounts[leftGlyphName] || {})[rightGlyphName];
}
