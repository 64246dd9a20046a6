import { describe, expect, it } from 'vitest';
import { buildBlocks, row } from '#domain/extraction/block-builder';
import {
  approxFind,
  buildDocText,
  checkboxLeftOf,
  citationOf,
  findAllPhrases,
  findPhrase,
  linesByPage,
  normalizeKey,
  textBetween,
  valueAbove,
  valueAfter,
} from '#domain/extraction/lines';
import type { Block } from '#domain/extraction/types';

describe('normalizeKey', () => {
  it('folds case, spaces, punctuation and the 0/O, 1/l/I, S/$ confusions', () => {
    expect(normalizeKey('(Se1ler) and')).toBe(normalizeKey('(SELLER)  AND'));
    expect(normalizeKey('0ption Fee')).toBe(normalizeKey('Option Fee'));
    expect(normalizeKey('SeIler')).toBe(normalizeKey('Seller'));
    expect(normalizeKey('$ 5')).toBe('s5');
  });
});

describe('approxFind', () => {
  it('finds exact and near matches, with offsets', () => {
    expect(approxFind('xxabcdefyy', 'abcdef', 0)).toEqual({ start: 2, end: 8, distance: 0 });
    expect(approxFind('xxabXdefyy', 'abcdef', 1)).toEqual({ start: 2, end: 8, distance: 1 });
    expect(approxFind('xxabdefyy', 'abcdef', 1)).toMatchObject({ start: 2, distance: 1 });
    expect(approxFind('xxabXYefyy', 'abcdef', 1)).toBeNull();
  });
});

describe('rows and reading order', () => {
  // A label row whose value block is emitted last (as a flattened form's field appearance is).
  const blocks: Block[] = buildBlocks({
    1: [
      row(0.1, [0.08, '1. PARTIES: The parties to this contract are']),
      row(0.115, [0.1, '(Seller) and'], [0.84, '(Buyer).']),
      row(0.2, [0.1, 'Texas, known as']),
    ],
  });
  const values = buildBlocks({ 1: [{ top: 0.098, items: [{ left: 0.46, text: 'Robert Jones' }] }, row(0.116, [0.2, 'Ann Lee and David Lee'])] });
  const doc = buildDocText([...blocks, ...values]);

  it('orders tokens by geometry, not by block order', () => {
    expect(doc.pages.get(1)!.raw).toBe(
      '1. PARTIES: The parties to this contract are Robert Jones\n(Seller) and Ann Lee and David Lee (Buyer).\nTexas, known as',
    );
  });

  it('reads the value between two labels', () => {
    const a = findPhrase(doc, '(Seller) and')!;
    const b = findPhrase(doc, '(Buyer).', { after: a })!;
    const span = textBetween(doc, a, b);
    expect(span.text).toBe('Ann Lee and David Lee');
    expect(span.tokens.map((t) => t.text)).toEqual(['Ann', 'Lee', 'and', 'David', 'Lee']);
  });

  it('reads the value after a label on its row, or on the next row', () => {
    const a = findPhrase(doc, 'The parties to this contract are')!;
    expect(valueAfter(doc, a).text).toBe('Robert Jones');
    const known = findPhrase(doc, 'Texas, known as')!;
    expect(valueAfter(doc, known).text).toBe('');
  });

  it('lists LINE blocks per page in reading order', () => {
    expect(linesByPage([...values, ...blocks]).get(1)!.map((b) => b.Text)).toEqual([
      '1. PARTIES: The parties to this contract are',
      'Robert Jones',
      '(Seller) and',
      'Ann Lee and David Lee',
      '(Buyer).',
      'Texas, known as',
    ]);
  });
});

describe('findPhrase', () => {
  it('matches labels glued to values and OCR-misread labels', () => {
    const doc = buildDocText(buildBlocks({ 9: [row(0.28, [0.1, 'EXECUTED the 20thday of'], [0.5, 'July, 20 25(Effective Date).'])] }));
    const a = findPhrase(doc, 'EXECUTED the')!;
    const b = findPhrase(doc, '(Effective Date)', { after: a })!;
    expect(textBetween(doc, a, b).text).toBe('20thday of July, 20 25');
    expect(b.page).toBe(9);
    const noisy = buildDocText(buildBlocks({ 1: [row(0.1, [0.1, '(Se1ler) and Ann Lee (Buyer).'])] }));
    expect(findPhrase(noisy, '(Seller) and')).toMatchObject({ distance: 0 });
    const worse = buildDocText(buildBlocks({ 1: [row(0.1, [0.1, 'notice of terminatlon to Se11er withln 5'])] }));
    expect(findPhrase(worse, 'notice of termination to Seller within')).not.toBeNull();
  });

  it('limits a search to a region and finds every occurrence', () => {
    const doc = buildDocText(buildBlocks({ 1: [row(0.1, [0.1, 'Buyer'], [0.6, 'Seller']), row(0.2, [0.1, 'Buyer'], [0.6, 'Seller'])] }));
    expect(findAllPhrases(doc, 'Buyer').length).toBe(2);
    expect(findAllPhrases(doc, 'Seller', { region: { left: 0.5, top: 0.15 } }).length).toBe(1);
  });
});

describe('valueAbove', () => {
  it('reads the text printed above a caption, within the column', () => {
    const doc = buildDocText(
      buildBlocks({
        10: [
          row(0.19, [0.083, 'Hill Country Realty'], [0.5, 'Capital City Homes']),
          row(0.205, [0.082, 'Other Broker Firm'], [0.37, 'License No.'], [0.5, 'Listing Broker Firm']),
        ],
      }),
    );
    const cap = findPhrase(doc, 'Other Broker Firm')!;
    expect(valueAbove(doc, cap, { right: 0.37 }).map((t) => t.text)).toEqual(['Hill', 'Country', 'Realty']);
  });
});

describe('checkboxLeftOf', () => {
  const box = (glyphs: [number, string][]) =>
    buildDocText(buildBlocks({ 8: [row(0.35, ...glyphs.map(([l, t]) => [l, t] as [number, string]), [0.1355, 'Third Party Financing Addendum'])] }));
  const state = (glyphs: [number, string][]) => {
    const doc = box(glyphs);
    return checkboxLeftOf(doc, findPhrase(doc, 'Third Party Financing Addendum')!).state;
  };
  it('reads the text layer: Wingdings "q" box, ZapfDingbats "4" check', () => {
    expect(state([[0.1077, 'q']])).toBe('unchecked');
    expect(state([[0.1077, 'q'], [0.109, '4']])).toBe('checked');
    expect(state([[0.1077, 'q4']])).toBe('checked');
  });
  it("reads tesseract's renderings", () => {
    expect(state([[0.11, '8']])).toBe('checked');
    expect(state([[0.11, 'YA']])).toBe('checked');
    expect(state([[0.11, '[OQ']])).toBe('unchecked');
    expect(state([[0.11, '0']])).toBe('unchecked');
    expect(state([])).toBe('unchecked');
  });
  it('prefers a SELECTION_ELEMENT when the source emits one', () => {
    const doc = box([[0.1077, 'q']]);
    const m = findPhrase(doc, 'Third Party Financing Addendum')!;
    expect(checkboxLeftOf(doc, m, [{ page: 8, box: { left: 0.108, top: 0.35, width: 0.012, height: 0.011 }, selected: true }]).state).toBe('checked');
  });
});

describe('citationOf', () => {
  it('cites a block with lowercase box keys', () => {
    const [line] = buildBlocks({ 3: [row(0.5, [0.2, 'hello world'])] });
    expect(citationOf(line)).toEqual({ page: 3, text: 'hello world', boundingBox: { left: 0.2, top: 0.5, width: 0.0825, height: 0.011 } });
  });
  it('cites tokens with their union box', () => {
    const doc = buildDocText(buildBlocks({ 2: [row(0.3, [0.1, 'a b'])] }));
    const c = citationOf(doc.pages.get(2)!.tokens);
    expect(c.page).toBe(2);
    expect(c.text).toBe('a b');
    expect(c.boundingBox.left).toBeCloseTo(0.1);
    expect(c.boundingBox.width).toBeCloseTo(3 * 0.0075);
  });
});
