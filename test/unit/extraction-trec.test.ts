import { describe, expect, it } from 'vitest';
import { buildBlocks, row, type RowSpec } from '#domain/extraction/block-builder';
import { extractContract } from '#domain/extraction/extract';
import { ExtractionError, type Block, type OcrResult } from '#domain/extraction/types';

/** Values typed into the hand-made TREC 20-18 layout ('' = blank). */
interface V {
  sellers: string;
  buyers: string;
  lot: string;
  block: string;
  addition: string;
  city: string;
  county: string;
  address: string;
  cash: string;
  financed: string;
  total: string;
  finBox: '' | 'tpf' | 'loan' | 'seller';
  escrow: string;
  earnest: string;
  optionFee: string;
  optionDays: string;
  titleCo: string;
  surveyBox: 0 | 1 | 2 | 3;
  surveyDays: string;
  objectionDays: string;
  hoa: '' | 'is' | 'not';
  closing: string;
  closingYY: string;
  execDay: string;
  execMonth: string;
  execYY: string;
  sigBuyers: string[];
  sigSellers: string[];
  addenda: string[];
  otherFirm: string;
  assoc: string;
  listFirm: string;
  listAssoc: string;
  check: string;
  formNo: string;
  /** The printed N of ¶5A "Within N days after the Effective Date" (3 on the official form). */
  emDays: string;
}

const V0: V = {
  sellers: 'Robert Jones and Mary Jones',
  buyers: 'Ann Lee and David Lee',
  lot: '7',
  block: 'B',
  addition: 'Oak Hollow',
  city: 'Austin',
  county: 'Travis',
  address: '1234 Oak Hollow Dr, Austin, TX 78701',
  cash: '85,000.00',
  financed: '340,000.00',
  total: '425,000.00',
  finBox: 'tpf',
  escrow: 'Lone Star Title Company',
  earnest: '5,000.00',
  optionFee: '250.00',
  optionDays: '5',
  titleCo: 'Lone Star Title Company',
  surveyBox: 1,
  surveyDays: '10',
  objectionDays: '7',
  hoa: 'is',
  closing: 'August 29',
  closingYY: '25',
  execDay: '20th',
  execMonth: 'July',
  execYY: '25',
  sigBuyers: ['Ann Lee', 'David Lee'],
  sigSellers: ['Robert Jones', 'Mary Jones'],
  addenda: ['Third Party Financing Addendum', 'Addendum for Property Subject to'],
  otherFirm: 'Hill Country Realty',
  assoc: 'Jane Smith',
  listFirm: 'Capital City Homes',
  listAssoc: 'Tom Brown',
  check: '4',
  formNo: 'TREC NO. 20-18',
  emDays: '3',
};

type Item = [number, string, number?];
const opt = (cond: boolean, ...items: Item[]): Item[] => (cond ? items : []);

/** The printed rows of TREC 20-18 that the rules read, with `v` typed into the blanks (positions as on the form). */
function trecPages(v: V, conf = 99): Record<number, RowSpec[]> {
  const c = (left: number, text: string): Item => [left, text, conf];
  const footer = row(0.962, c(0.06, 'Initialed for identification by Buyer'), c(0.45, 'and Seller'), c(0.806, v.formNo));
  const header = (n: number) => row(0.042, c(0.076, 'Contract Concerning'), c(0.35, v.address), c(0.748, `Page ${n} of 11 11-04-2024`));
  const box = (left: number, checked: boolean): Item[] => [c(left, 'q'), ...opt(checked, c(left + 0.002, v.check))];
  const addendaRows: RowSpec[] = [
    row(0.346, ...box(0.1077, v.addenda.includes('Third Party Financing Addendum')), c(0.1355, 'Third Party Financing Addendum'), ...box(0.517, false), c(0.547, 'Seller’s Temporary Residential Lease')),
    row(0.365, ...box(0.1077, false), c(0.1355, 'Seller Financing Addendum'), ...box(0.517, v.addenda.includes('Short Sale Addendum')), c(0.547, 'Short Sale Addendum')),
    row(0.384, ...box(0.1077, v.addenda.includes('Addendum for Property Subject to')), c(0.1355, 'Addendum for Property Subject to')),
    row(0.396, c(0.1355, 'Mandatory Membership in a Property')),
    row(0.408, c(0.1355, 'Owners Association')),
    row(0.43, ...box(0.1077, false), c(0.1355, 'Loan Assumption Addendum'), ...box(0.517, false), c(0.547, 'Addendum Regarding Fixture Leases')),
  ];
  return {
    1: [
      header(1),
      row(0.052, c(0.243, 'PROMULGATED BY THE TEXAS REAL ESTATE COMMISSION (TREC)'), c(0.6, '(Address of Property)')),
      row(0.064, c(0.199, 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)')),
      row(0.116, c(0.078, '1. PARTIES: The parties to this contract are'), ...opt(!!v.sellers, c(0.46, v.sellers))),
      row(0.13, c(0.099, '(Seller) and'), ...opt(!!v.buyers, c(0.2, v.buyers)), c(0.84, '(Buyer).')),
      row(0.209, c(0.099, 'A. LAND: Lot'), ...opt(!!v.lot, c(0.21, v.lot)), c(0.319, 'Block'), ...opt(!!v.block, c(0.37, v.block)), c(0.495, ','), ...opt(!!v.addition, c(0.51, v.addition))),
      row(0.222, c(0.121, 'Addition, City of'), ...opt(!!v.city, c(0.26, v.city)), c(0.535, ', County of'), ...opt(!!v.county, c(0.64, v.county)), c(0.908, ',')),
      row(0.236, c(0.121, 'Texas, known as'), ...opt(!!v.address, c(0.27, v.address))),
      row(0.249, c(0.121, '(address/zip code), or as described on attached exhibit.')),
      row(0.588, c(0.101, 'A. Cash portion of Sales Price payable by Buyer at closing'), c(0.6, '................'), c(0.737, '$'), ...opt(!!v.cash, c(0.8, v.cash))),
      row(0.63, c(0.102, 'B. Sum of all financing described in the attached:'), ...box(0.512, v.finBox === 'tpf'), c(0.551, 'Third Party Financing Addendum,')),
      row(0.648, ...box(0.121, v.finBox === 'loan'), c(0.16, 'Loan Assumption Addendum,'), ...box(0.406, v.finBox === 'seller'), c(0.445, 'Seller Financing Addendum'), c(0.676, '.......'), c(0.737, '$'), ...opt(!!v.financed, c(0.8, v.financed))),
      row(0.665, c(0.101, 'C. Sales Price (Sum of A and B)'), c(0.35, '..........'), c(0.737, '$'), ...opt(!!v.total, c(0.8, v.total))),
      footer,
    ],
    2: [
      header(2),
      row(0.074, c(0.08, '5. EARNEST MONEY AND TERMINATION OPTION:')),
      row(0.089, c(0.101, `A. DELIVERY OF EARNEST MONEY AND OPTION FEE: Within ${v.emDays} days after the Effective Date, Buyer`)),
      row(0.1025, c(0.123, 'must deliver to'), ...opt(!!v.escrow, c(0.24, v.escrow)), c(0.55, '(Escrow Agent) at'), c(0.69, '100 Congress Ave')),
      row(0.116, c(0.125, 'Austin, TX 78701'), c(0.373, '(address): $'), ...opt(!!v.earnest, c(0.48, v.earnest)), c(0.6, 'as earnest money and $'), ...opt(!!v.optionFee, c(0.8, v.optionFee))),
      row(0.1295, c(0.123, 'as the Option Fee. The earnest money and Option Fee shall be made payable to Escrow Agent')),
      row(0.186, c(0.125, '(2) If the last day to deliver the earnest money, Option Fee, or the additional earnest money')),
      row(0.199, c(0.152, 'falls on a Saturday, Sunday, or legal holiday, the time to deliver the earnest money, Option')),
      row(0.212, c(0.152, 'Fee, or the additional earnest money, as applicable, is extended until the end of the next day')),
      row(0.33, c(0.124, "and Buyer's agreement to pay the Option Fee within the time required, Seller grants Buyer the")),
      row(0.343, c(0.124, 'unrestricted right to terminate this contract by giving notice of termination to Seller within')),
      row(0.357, ...opt(!!v.optionDays, c(0.125, v.optionDays)), c(0.152, 'days after the Effective Date of this contract (Option Period). Notices under this')),
      row(0.555, c(0.123, 'title insurance (Title Policy) issued by'), ...opt(!!v.titleCo, c(0.47, v.titleCo)), c(0.79, '(Title Company)')),
      row(0.816, c(0.102, 'B. COMMITMENT: Within 20 days after the Title Company receives a copy of this contract, Seller')),
      footer,
    ],
    3: [
      header(3),
      row(0.09, c(0.097, 'C. SURVEY: The survey must be made by a registered professional land surveyor acceptable to the')),
      row(0.105, ...box(0.095, v.surveyBox === 1), c(0.12, '(1) Within'), ...opt(v.surveyBox === 1 && !!v.surveyDays, c(0.2, v.surveyDays)), c(0.25, 'days after the Effective Date of this contract, Seller shall furnish to Buyer and')),
      row(0.19, ...box(0.095, v.surveyBox === 2), c(0.12, '(2) Within'), ...opt(v.surveyBox === 2 && !!v.surveyDays, c(0.2, v.surveyDays)), c(0.25, 'days after the Effective Date of this contract, Buyer may obtain a new survey')),
      row(0.254, ...box(0.095, v.surveyBox === 3), c(0.12, '(3) Within'), ...opt(v.surveyBox === 3 && !!v.surveyDays, c(0.2, v.surveyDays)), c(0.25, "days after the Effective Date of this contract, Seller, at Seller's expense shall")),
      row(0.338, c(0.12, 'Buyer must object the earlier of (i) the Closing Date or (ii)'), ...opt(!!v.objectionDays, c(0.6, v.objectionDays)), c(0.65, 'days after Buyer receives the')),
      row(0.59, c(0.118, '(2) MEMBERSHIP IN PROPERTY OWNERS ASSOCIATION(S): The Property'), ...box(0.742, v.hoa === 'is'), c(0.761, 'is'), ...box(0.781, v.hoa === 'not'), c(0.8, 'is not subject')),
      footer,
    ],
    5: [header(5), row(0.74, c(0.098, 'A. The closing of the sale will be on or before'), ...opt(!!v.closing, c(0.48, v.closing)), c(0.69, ', 20'), ...opt(!!v.closingYY, c(0.72, v.closingYY)), c(0.77, ', or within 7 days')), footer],
    8: [
      header(8),
      row(0.3, c(0.1, '22. AGREEMENT OF PARTIES: This contract contains the entire agreement of the parties and')),
      row(0.313, c(0.1, 'cannot be changed except by their written agreement.'), c(0.555, 'Addenda which are a part of this contract')),
      row(0.326, c(0.1, 'are (Check all applicable boxes):')),
      ...addendaRows,
      row(0.6, c(0.08, '23. CONSULT AN ATTORNEY BEFORE SIGNING: TREC rules prohibit real estate brokers and sales')),
      footer,
    ],
    9: [
      header(9),
      row(0.2835, c(0.107, 'EXECUTED the'), ...opt(!!v.execDay, c(0.25, v.execDay)), c(0.3, 'day of'), ...opt(!!v.execMonth, c(0.4, v.execMonth)), c(0.563, ', 20'), ...opt(!!v.execYY, c(0.6, v.execYY)), c(0.64, '(Effective Date).')),
      row(0.2965, c(0.107, '(BROKER: FILL IN THE DATE OF FINAL ACCEPTANCE.)')),
      row(0.5025, ...opt(!!v.sigBuyers[0], c(0.123, v.sigBuyers[0])), ...opt(!!v.sigSellers[0], c(0.518, v.sigSellers[0]))),
      row(0.5167, c(0.118, 'Buyer'), c(0.514, 'Seller')),
      row(0.64, ...opt(!!v.sigBuyers[1], c(0.123, v.sigBuyers[1])), ...opt(!!v.sigSellers[1], c(0.518, v.sigSellers[1]))),
      row(0.654, c(0.118, 'Buyer'), c(0.514, 'Seller')),
      row(0.89, c(0.08, 'The form of this contract has been approved by the Texas Real Estate Commission.')),
      footer,
    ],
    10: [
      header(10),
      row(0.135, c(0.404, 'BROKER INFORMATION')),
      row(0.1914, ...opt(!!v.otherFirm, c(0.083, v.otherFirm)), ...opt(!!v.listFirm, c(0.5, v.listFirm))),
      row(0.2055, c(0.082, 'Other Broker Firm'), c(0.37, 'License No.'), c(0.5, 'Listing Broker Firm'), c(0.82, 'License No.')),
      row(0.2767, ...opt(!!v.assoc, c(0.083, v.assoc)), ...opt(!!v.listAssoc, c(0.5, v.listAssoc))),
      row(0.293, c(0.082, 'Associate’s Name'), c(0.37, 'License No.'), c(0.5, 'Listing Associate’s Name'), c(0.81, 'License No.')),
      footer,
    ],
  };
}

const ocrOf = (blocks: Block[]): OcrResult => ({ pageCount: 11, blocks, methods: {} });
const extract = (v: Partial<V> = {}, conf = 99) => extractContract(ocrOf(buildBlocks(trecPages({ ...V0, ...v }, conf))));

describe('extractContract — TREC 20-18 rules on hand-made blocks', () => {
  it('recognizes the form and reads every field (¶1–¶22, broker page)', () => {
    const r = extract();
    expect(r.formType).toBe('TREC 20-18');
    expect(r.pageCount).toBe(11);
    const values = Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f.value]));
    expect(values).toEqual({
      propertyStreet: '1234 Oak Hollow Dr',
      propertyCity: 'Austin',
      propertyState: 'TX',
      propertyZip: '78701',
      county: 'Travis',
      legalDescription: 'Lot 7, Block B, Oak Hollow Addition',
      buyers: ['Ann Lee', 'David Lee'],
      sellers: ['Robert Jones', 'Mary Jones'],
      salesPriceCash: 85000,
      salesPriceFinanced: 340000,
      salesPriceTotal: 425000,
      financingType: 'third_party',
      earnestMoney: 5000,
      optionFee: 250,
      optionPeriodDays: 5,
      escrowAgent: 'Lone Star Title Company',
      effectiveDate: '2025-07-20',
      closingDate: '2025-08-29',
      surveyDays: 10,
      titleObjectionDays: 7,
      hoa: true,
      addenda: [
        'Third Party Financing Addendum',
        'Addendum for Property Subject to Mandatory Membership in a Property Owners Association',
      ],
      buyerAgent: 'Jane Smith',
      buyerBrokerage: 'Hill Country Realty',
      listingAgent: 'Tom Brown',
      listingBrokerage: 'Capital City Homes',
      financingDeadlineDays: null,
    });
    expect(r.confidence).toBe(0.99);
    expect(r.requiresReview).toBe(false);
    expect(r.warnings).toEqual(['FinancingDeadline not set: the Third Party Financing Addendum is a separate form; enter its financing approval deadline']);
    expect(r.keyDates.map((k) => [k.keyDateType, k.dateValue])).toEqual([
      ['ClosingDate', '2025-08-29'],
      ['InspectionDeadline', '2025-07-25'],
      ['EarnestMoneyDue', '2025-07-23'],
      ['OptionFeeDue', '2025-07-23'],
      ['SurveyDeadline', '2025-07-30'],
      ['TitleObjectionDeadline', '2025-08-16'],
    ]);
  });

  it('cites page, text and box of each value', () => {
    const r = extract();
    expect(r.fields.salesPriceTotal.citations).toEqual([
      { page: 1, text: '425,000.00', boundingBox: { left: 0.8, top: 0.665, width: 10 * 0.0075, height: 0.011 } },
    ]);
    expect(r.fields.effectiveDate.citations[0]).toMatchObject({ page: 9, text: '20th day of July , 20 25' });
    expect(r.fields.buyerBrokerage.citations[0]).toMatchObject({ page: 10, text: 'Hill Country Realty' });
  });

  it('reads values by geometry whatever the block order', () => {
    const blocks = buildBlocks(trecPages(V0));
    const r = extractContract(ocrOf([...blocks].reverse()));
    expect(r.fields.buyers.value).toEqual(['Ann Lee', 'David Lee']);
    expect(r.fields.salesPriceFinanced.value).toBe(340000);
    expect(r.fields.closingDate.value).toBe('2025-08-29');
  });

  it('flags a name spelled differently at the signatures as a conflict', () => {
    const r = extract({ sigBuyers: ['Anne Lee', 'David Lee'] });
    expect(r.fields.buyers.value).toEqual(['Ann Lee', 'David Lee']);
    expect(r.fields.buyers.warnings).toEqual(["conflicting values: 'Ann Lee' (p1) vs 'Anne Lee' (p9)", 'low confidence']);
    expect(r.fields.buyers.citations.map((c) => c.page)).toEqual([1, 9]);
    expect(r.requiresReview).toBe(true);
  });

  it('marks missing required fields and requires review', () => {
    const r = extract({ buyers: '', closing: '', closingYY: '', sigBuyers: [] });
    expect(r.fields.buyers).toEqual({ value: null, confidence: 0, citations: [], warnings: ['required field missing'] });
    expect(r.fields.closingDate.warnings).toEqual(['required field missing']);
    expect(r.requiresReview).toBe(true);
    expect(r.warnings).toContain('required fields missing: buyers, closingDate');
    expect(r.keyDates.map((k) => k.keyDateType)).not.toContain('ClosingDate');
  });

  it('reads a cash sale: no financing box, no financed amount', () => {
    const r = extract({ finBox: '', financed: '', cash: '425,000.00', addenda: [] });
    expect(r.fields.financingType.value).toBe('cash');
    expect(r.fields.salesPriceFinanced.value).toBeNull();
    expect(r.fields.addenda.value).toEqual([]);
    expect(r.requiresReview).toBe(false);
  });

  it('falls back to the ¶22 financing addendum when no ¶3B box reads as checked', () => {
    const r = extract({ finBox: '' });
    expect(r.fields.financingType).toMatchObject({ value: 'third_party', confidence: 0.891, warnings: [] });
    const none = extract({ finBox: '', addenda: [] });
    expect(none.fields.financingType.value).toBeNull();
    expect(none.fields.financingType.warnings).toContain('financed amount without a readable ¶3B financing box');
  });

  it.each([
    ['loan', 'loan_assumption'],
    ['seller', 'seller_financing'],
  ] as const)('reads the ¶3B %s box', (finBox, type) => {
    expect(extract({ finBox }).fields.financingType.value).toBe(type);
  });

  it('reads "is not" in ¶6E(2), survey option (2), and a different check glyph (OCR "8")', () => {
    const r = extract({ hoa: 'not', surveyBox: 2, surveyDays: '14', check: '8', addenda: ['Third Party Financing Addendum'] });
    expect(r.fields.hoa.value).toBe(false);
    expect(r.fields.surveyDays.value).toBe(14);
    expect(r.fields.financingType.value).toBe('third_party');
  });

  it('takes HOA from the ¶22 mandatory-membership addendum too, and flags ¶6E(2) "is not" against it', () => {
    expect(extract({ hoa: '' }).fields.hoa.value).toBe(true);
    const r = extract({ hoa: 'not' });
    expect(r.fields.hoa.value).toBe(true);
    expect(r.fields.hoa.warnings).toEqual(["conflicting values: ¶6E(2) 'is not' (p3) vs ¶22 mandatory membership addendum (p8)", 'low confidence']);
    expect(r.requiresReview).toBe(true);
  });

  it('normalizes written dates and amounts', () => {
    const r = extract({ execDay: '1st', execMonth: 'March', execYY: '26', closing: 'April 15', closingYY: '26', total: '1,250,000.00', cash: '1,250,000.00', financed: '', finBox: '' });
    expect(r.fields.effectiveDate.value).toBe('2026-03-01');
    expect(r.fields.closingDate.value).toBe('2026-04-15');
    expect(r.fields.salesPriceTotal.value).toBe(1250000);
  });

  it("reads ¶5A's printed number of days from the document for the earnest money and Option Fee deadlines", () => {
    const kd = Object.fromEntries(extract({ emDays: '2' }).keyDates.map((k) => [k.keyDateType, k]));
    expect(kd.EarnestMoneyDue.dateValue).toBe('2025-07-22');
    expect(kd.OptionFeeDue.calculationNotes).toBe('Effective Date 2025-07-20 + 2 days (TREC 20-18 ¶5A)');
  });

  it('defaults the state to TX when the address line names none (¶2A places the Property in Texas)', () => {
    const r = extract({ address: '1234 Oak Hollow Dr, Austin 78701' });
    expect(r.fields.propertyState.value).toBe('TX');
    expect(r.fields.propertyZip.value).toBe('78701');
  });

  it('lowers confidence with OCR confidence and warns below 0.8', () => {
    const r = extract({}, 70);
    expect(r.fields.salesPriceTotal.value).toBe(425000);
    // Every word at 70 (below WEAK_WORD): judged by the weakest word, 0.7^1.5.
    expect(r.fields.salesPriceTotal.confidence).toBe(0.586);
    expect(r.fields.salesPriceTotal.warnings).toEqual(['low confidence']);
    expect(r.requiresReview).toBe(true);
  });

  it('warns when ¶3C is not the sum of ¶3A and ¶3B', () => {
    const r = extract({ total: '430,000.00' });
    expect(r.fields.salesPriceTotal.warnings).toEqual(['conflicting values: ¶3C 430000 ≠ ¶3A 85000 + ¶3B 340000', 'low confidence']);
    // A value its own form contradicts is not confident (confidence.ts caps it below 0.5).
    expect(r.fields.salesPriceTotal.confidence).toBeLessThan(0.5);
    expect(r.requiresReview).toBe(true);
  });

  it('names an earlier edition by its own number (TREC NO. 20-17) and reads it with the same rules', () => {
    const r = extract({ formNo: 'TREC NO. 20-17' });
    expect(r.formType).toBe('TREC 20-17');
    expect(r.fields.salesPriceTotal.value).toBe(425000);
    expect(r.keyDates.find((k) => k.keyDateType === 'ClosingDate')?.calculationNotes).toContain('(TREC 20-17 ¶9A)');
  });

  it('does not take an edition it does not know (TREC NO. 20-19) for a TREC form, and says so', () => {
    const r = extract({ formNo: 'TREC NO. 20-19' });
    expect(r.formType).toBe('generic');
    expect(r.warnings[0]).toMatch(/^TREC 20-19 is not an edition this extractor knows/);
  });

  it('throws no_text for blocks without text', () => {
    expect(() => extractContract({ pageCount: 1, blocks: [{ BlockType: 'PAGE', Page: 1 }], methods: {} })).toThrow(ExtractionError);
  });
});

describe('extractContract — checkboxes from Textract SELECTION_ELEMENT blocks (document analysis with FORMS)', () => {
  /** A checkbox as Textract FORMS analysis returns it, over the printed box at (left, top) of the layout above. */
  const sel = (page: number, left: number, top: number, selected: boolean): Block => ({
    BlockType: 'SELECTION_ELEMENT',
    Id: `sel-${page}-${left}-${top}`,
    Page: page,
    SelectionStatus: selected ? 'SELECTED' : 'NOT_SELECTED',
    Confidence: 97,
    Geometry: { BoundingBox: { Left: left, Top: top, Width: 0.012, Height: 0.011 } },
  });
  /** The form's boxes (page, left, top), as `trecPages` places them. */
  const BOXES = {
    finTpf: [1, 0.512, 0.63],
    finLoan: [1, 0.121, 0.648],
    finSeller: [1, 0.406, 0.648],
    survey1: [3, 0.095, 0.105],
    survey2: [3, 0.095, 0.19],
    survey3: [3, 0.095, 0.254],
    hoaIs: [3, 0.742, 0.59],
    hoaIsNot: [3, 0.781, 0.59],
    addTpf: [8, 0.1077, 0.346],
    addSellerLease: [8, 0.517, 0.346],
    addSellerFin: [8, 0.1077, 0.365],
    addShortSale: [8, 0.517, 0.365],
    addHoa: [8, 0.1077, 0.384],
    addLoan: [8, 0.1077, 0.43],
    addFixtures: [8, 0.517, 0.43],
  } as const;
  /** One SELECTION_ELEMENT per box: SELECTED for `checked`, NOT_SELECTED for every other. */
  const selections = (...checked: (keyof typeof BOXES)[]): Block[] =>
    Object.entries(BOXES).map(([name, [page, left, top]]) => sel(page, left, top, checked.includes(name as keyof typeof BOXES)));
  const run = (v: Partial<V>, extra: Block[]) => extractContract(ocrOf([...buildBlocks(trecPages({ ...V0, ...v })), ...extra]));

  it('SELECTED decides a box with no check glyph in the text', () => {
    // check: '' → the text has only the empty "q" boxes; what is checked comes from the elements alone.
    const v: Partial<V> = { check: '', surveyBox: 2, surveyDays: '14' };
    const plain = run(v, []);
    expect(plain.fields.financingType.value).toBeNull();
    expect(plain.fields.hoa.value).toBeNull();
    expect(plain.fields.addenda.value).toEqual([]);

    const r = run(v, selections('finSeller', 'survey2', 'hoaIsNot', 'addSellerFin'));
    expect(r.fields.financingType.value).toBe('seller_financing');
    expect(r.fields.surveyDays.value).toBe(14);
    expect(r.fields.surveyDays.confidence).toBeGreaterThan(plain.fields.surveyDays.confidence);
    expect(r.fields.hoa.value).toBe(false);
    expect(r.fields.addenda.value).toEqual(['Seller Financing Addendum']);
  });

  it('NOT_SELECTED decides an empty box even when check-glyph text is there', () => {
    // V0's text has "4" check glyphs over ¶3B Third Party, ¶6C(1), ¶6E(2) "is", and two ¶22 addenda.
    const r = run({}, selections('finLoan', 'hoaIsNot', 'addLoan'));
    expect(r.fields.financingType.value).toBe('loan_assumption');
    expect(r.fields.hoa.value).toBe(false);
    expect(r.fields.hoa.warnings).toEqual([]);
    expect(r.fields.addenda.value).toEqual(['Loan Assumption Addendum']);
    // ¶6C: no box selected, so the days come from the only option with a number, at lower confidence.
    expect(r.fields.surveyDays.value).toBe(10);
    expect(r.fields.surveyDays.confidence).toBeLessThan(extract().fields.surveyDays.confidence);
  });
});
