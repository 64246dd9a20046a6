/**
 * TREC 20-18 end to end on scans: the image-only copy of a labelled fixture (every page a picture, no text
 * layer) read by the local OCR adapter with tesseract.js, then extracted. OCR is slow (about 4 s of CPU per
 * page, 11 pages per contract), so one value set runs here — financedPurchase, the one with the most checkboxes
 * (`IMAGE_VALUE_SETS`); the text-layer test covers every value set, and `npm run bench:extraction` OCRs more. The
 * image-only copy comes from the fixture disk cache when trec-fixtures.test.ts rendered it first in the run. Asserts
 * at least 90% of fields exact and prints a per-field accuracy table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { extractContract } from '#domain/extraction/extract';
import { compareFields, formatAccuracyTable, scoreComparisons, type FieldComparison } from '#domain/extraction/accuracy';
import { REQUIRED_FIELDS } from '#domain/extraction/fields';
import { buildFixture } from '../fixtures/trec/build-fixtures.ts';
import { expectedFields, IMAGE_VALUE_SETS } from '../fixtures/trec/value-sets.ts';

const compared: Record<string, FieldComparison[]> = {};

afterAll(async () => {
  await terminateLocalOcr();
  if (Object.keys(compared).length) console.log(`\nImage-only (tesseract) per-field accuracy:\n${formatAccuracyTable(compared)}\n`);
});

describe('TREC 20-18 image-only fixtures → tesseract → fields', () => {
  it.each(IMAGE_VALUE_SETS)(
    '%s: recognized, ≥ 90% of fields exact, required fields read',
    async (name) => {
      const fx = await buildFixture(name);
      const ocr = await localOcr.analyze(await fx.imagePdf());
      expect(Object.values(ocr.methods)).toEqual(Array(11).fill('tesseract'));

      const r = extractContract(ocr);
      expect(r.formType).toBe('TREC 20-18');
      const rows = compareFields(expectedFields(fx.values), r.fields);
      compared[name] = rows;
      const score = scoreComparisons(rows);
      console.log(`${name}: ${score.exact}/${score.total} exact (precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)})`);
      expect(score.accuracy).toBeGreaterThanOrEqual(0.9);
      // Every required field is read from the scan, and values are cited on their page.
      for (const f of REQUIRED_FIELDS) expect(r.fields[f].value, f).not.toBeNull();
      expect(r.fields.salesPriceTotal.citations[0].page).toBe(1);
    },
    240_000,
  );
});
