/**
 * Textract Queries for contracts the extractor does not recognize. In AWS the document analysis also asks
 * the generic questions below (the QUERIES feature, `QueriesConfig`); Textract answers each with a
 * QUERY_RESULT block (text, confidence 0–100, page and box) linked from its QUERY block by an ANSWER
 * relationship. Each answer goes through the same plausibility check as the local reader's values and joins
 * them as one more candidate: agreeing values confirm each other, a disagreement leaves the field empty with
 * a warning, and an answer alone fills a field the local reader could not. Recognized forms ignore answers:
 * their own rules are more precise.
 */
import type { Block, ContractFields } from '#domain/extraction/types';
import { boxOf, buildDocText, type DocText, type Token } from '#domain/extraction/lines';
import {
  GENERIC_LABELS,
  parseGeneric,
  readGenericCandidates,
  resolveGeneric,
  type Candidate,
  type GenericField,
} from '#domain/extraction/generic';
import type { FormTerms } from '#domain/extraction/key-dates';

/** One generic question: Textract's alias (≤ 100 chars, `[A-Z_]`), its text, and the field it answers. */
export interface GenericQuery {
  alias: string;
  text: string;
  field: GenericField;
}

/** The questions asked of every document in AWS (Textract allows up to 30 per document). */
export const GENERIC_QUERIES: readonly GenericQuery[] = [
  { alias: 'CLOSING_DATE', text: 'What is the closing date?', field: 'closingDate' },
  { alias: 'EFFECTIVE_DATE', text: 'What is the effective date or date of final acceptance of the contract?', field: 'effectiveDate' },
  { alias: 'PURCHASE_PRICE', text: 'What is the purchase price or sales price?', field: 'salesPriceTotal' },
  { alias: 'BUYERS', text: 'Who is the buyer?', field: 'buyers' },
  { alias: 'SELLERS', text: 'Who is the seller?', field: 'sellers' },
  { alias: 'EARNEST_MONEY', text: 'What is the earnest money deposit amount?', field: 'earnestMoney' },
  { alias: 'ESCROW_AGENT', text: 'Who is the escrow agent, title company or closing agent?', field: 'escrowAgent' },
  { alias: 'PROPERTY_ADDRESS', text: 'What is the address of the property?', field: 'address' },
];

/** Answers below this Textract confidence (0–100) are not used. */
export const MIN_QUERY_CONFIDENCE = 50;

/** Certainty (0–1) of a query answer as a candidate, before its own confidence. */
const QUERY_CERTAINTY = 0.9;

/** One answer: the query's alias, the text read, Textract's confidence (0–100), page and box. */
export interface QueryAnswer {
  alias: string;
  text: string;
  confidence: number;
  token: Token;
}

/**
 * The answers in a document's blocks, by alias (a query may have several answers, best first). Blocks from
 * sources without queries (the local adapter) give an empty map.
 */
export function queryAnswers(blocks: Block[]): Map<string, QueryAnswer[]> {
  const byId = new Map(blocks.filter((b) => b.BlockType === 'QUERY_RESULT' && b.Id).map((b) => [b.Id!, b]));
  const out = new Map<string, QueryAnswer[]>();
  for (const q of blocks) {
    if (q.BlockType !== 'QUERY' || !q.Query?.Alias) continue;
    const ids = (q.Relationships ?? []).filter((r) => r.Type === 'ANSWER').flatMap((r) => r.Ids ?? []);
    for (const id of ids) {
      const r = byId.get(id);
      const text = r?.Text?.trim();
      if (!r || !text) continue;
      const confidence = r.Confidence ?? 0;
      const token: Token = { text, key: '', page: r.Page ?? q.Page ?? 1, box: boxOf(r), confidence };
      out.set(q.Query.Alias, [...(out.get(q.Query.Alias) ?? []), { alias: q.Query.Alias, text, confidence, token }]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => b.confidence - a.confidence);
  return out;
}

/**
 * The generic reader with Textract's answers merged in (see the module doc). Without answers this is the
 * generic reader alone.
 * @returns fields (confidence ≤ the generic cap), no printed form terms, warnings for unused answers
 */
export function extractGenericWithQueries(blocks: Block[], doc: DocText = buildDocText(blocks)): { fields: ContractFields; terms: FormTerms; warnings: string[] } {
  const reading = readGenericCandidates(doc);
  const answers = queryAnswers(blocks);
  const warnings: string[] = [];
  for (const q of GENERIC_QUERIES) {
    const best = answers.get(q.alias)?.[0];
    if (!best) continue;
    const label = reading.candidates.get(q.field)?.label ?? GENERIC_LABELS.find((l) => l.field === q.field)!;
    if (best.confidence < MIN_QUERY_CONFIDENCE) {
      warnings.push(`Textract query ${q.alias}: answer '${best.text}' below ${MIN_QUERY_CONFIDENCE}% confidence; not used`);
      continue;
    }
    const value = parseGeneric(label.kind, best.text);
    if (value === null) {
      warnings.push(`Textract query ${q.alias}: answer '${best.text}' is not a plausible ${label.kind}; not used`);
      continue;
    }
    const candidate: Candidate = { value, span: { page: best.token.page, text: best.text, tokens: [best.token] }, certainty: QUERY_CERTAINTY, where: 'query' };
    const entry = reading.candidates.get(q.field) ?? { label, candidates: [] };
    entry.candidates.push(candidate);
    reading.candidates.set(q.field, entry);
  }
  return { fields: resolveGeneric(reading), terms: {}, warnings };
}
