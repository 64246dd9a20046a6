/**
 * Recognizing the Texas Real Estate Commission's promulgated purchase contracts by their own text: the title
 * and the form number printed in every page footer ("TREC NO. 20-18"). The TREC forms share their paragraph
 * structure and most of their wording (¶1 parties, ¶3 sales price, ¶5 earnest money, ¶9A closing, the
 * "EXECUTED the … (Effective Date)" line), so one set of rules (trec-20-18.ts) reads them all, with the few
 * places they differ (condominium unit, new-home ¶2, the older editions' ¶23 option) handled there.
 *
 * Two structures:
 * - `option-in-5`: 20-16 and later (and the companion forms of the same revisions) — ¶5 "EARNEST MONEY AND
 *   TERMINATION OPTION": ¶5A earnest money and Option Fee, ¶5B option period;
 * - `option-in-23`: 20-15 and earlier — ¶5 "EARNEST MONEY" and ¶23 "TERMINATION OPTION".
 * The structure is read from the document's own headings, not assumed from the edition number.
 */
import { findAllPhrases, findPhrase, type DocText } from '#domain/extraction/lines';

/** A TREC contract family: its number, printed title, and the editions recognized. */
export interface TrecFamily {
  number: '20' | '23' | '24' | '30';
  title: string;
  /** Editions accepted ("20-18"); another edition of the same form is not recognized (read as generic). */
  editions: readonly string[];
}

/**
 * The families recognized: One to Four Family Residential Contract (Resale) 20-x, New Home Contract
 * (Incomplete Construction) 23-x, New Home Contract (Completed Construction) 24-x, Residential Condominium
 * Contract (Resale) 30-x.
 */
export const TREC_FAMILIES: readonly TrecFamily[] = [
  { number: '20', title: 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)', editions: ['20-14', '20-15', '20-16', '20-17', '20-18'] },
  { number: '23', title: 'NEW HOME CONTRACT (Incomplete Construction)', editions: ['23-16', '23-17', '23-18', '23-19', '23-20'] },
  { number: '24', title: 'NEW HOME CONTRACT (Completed Construction)', editions: ['24-16', '24-17', '24-18', '24-19', '24-20'] },
  { number: '30', title: 'RESIDENTIAL CONDOMINIUM CONTRACT (RESALE)', editions: ['30-14', '30-15', '30-16', '30-17', '30-18'] },
];

/** Where the termination option lives (see the module doc). */
export type TrecStructure = 'option-in-5' | 'option-in-23';

/** A recognized TREC contract. */
export interface TrecForm {
  /** "TREC 20-18", "TREC 30-17", … (the result's `formType`). */
  formType: `TREC ${string}`;
  family: TrecFamily['number'];
  /** "20-18". */
  edition: string;
  structure: TrecStructure;
}

/** Outcome of {@link recognizeTrec}: the form, or why a TREC-looking document was not taken for one. */
export type TrecRecognition = { form: TrecForm } | { form: null; warning?: string };

/** "20-18" from OCR'd digits ("2O-l8" → "20-18"). */
const digits = (s: string): string => s.replace(/[Oo]/g, '0').replace(/[lI|]/g, '1').replace(/\s+/g, '');

/**
 * The edition printed in the footers: the most frequent "TREC NO. nn-ee" of the family, ignoring "This form
 * replaces TREC NO. …" (which names the previous edition). Null when none is readable.
 */
export function trecEdition(doc: DocText, family: TrecFamily['number']): string | null {
  const counts = new Map<string, number>();
  for (const m of findAllPhrases(doc, `TREC NO. ${family}-`, { errorRate: 0.1 })) {
    const page = doc.pages.get(m.page)!;
    const before = page.raw.slice(Math.max(0, m.rawStart - 12), m.rawStart);
    if (/replaces\s*$/i.test(before)) continue;
    const after = digits(page.raw.slice(m.rawStart, m.rawEnd + 4));
    const ed = new RegExp(`${family}\\s*[-–]\\s*(\\d{2})`).exec(after);
    if (ed) counts.set(`${family}-${ed[1]}`, (counts.get(`${family}-${ed[1]}`) ?? 0) + 1);
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : null;
}

/**
 * Recognizes a TREC contract: its family's title and a readable edition of that family in the footers. A known
 * title with an unknown edition is not recognized, with a warning (its paragraphs may have moved).
 */
export function recognizeTrec(doc: DocText): TrecRecognition {
  for (const family of TREC_FAMILIES) {
    if (!findPhrase(doc, family.title)) continue;
    const edition = trecEdition(doc, family.number);
    if (!edition) continue;
    if (!family.editions.includes(edition)) {
      return { form: null, warning: `TREC ${edition} is not an edition this extractor knows (${family.editions.join(', ')}); read as a generic contract` };
    }
    const old = !findPhrase(doc, 'EARNEST MONEY AND TERMINATION OPTION') && !!findPhrase(doc, 'TERMINATION OPTION: For nominal consideration');
    return { form: { formType: `TREC ${edition}`, family: family.number, edition, structure: old ? 'option-in-23' : 'option-in-5' } };
  }
  return { form: null };
}
