/**
 * `npm run demo` (with `npm start` running): the product's main path on a real Texas form. Fills the official
 * TREC 20-18 with a fictional financed purchase, uploads it through a presigned URL, waits for the extraction
 * job, prints each field with its confidence and first citation, applies it, and prints the resulting deal with
 * its key dates, parties and tasks. Last, it checks the deal against what was filled in (closing date,
 * option-period deadline, buyers and sellers) and exits 1 on a mismatch. Reads `.data/local-credentials.json`;
 * `DEMO_FIXTURE` picks another value set (see test/fixtures/trec/value-sets.ts); `DEMO_SCAN=1` uploads an
 * image-only copy instead (read by tesseract.js locally; about 45 s).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIELD_NAMES } from '#domain/extraction/fields';
import { addDays } from '#domain/calendar';

const START_FIRST = 'Start the local API first, in another shell: npm start';

const credentialsFile = path.resolve(process.env.DATA_DIR ?? '.data', 'local-credentials.json');
if (!existsSync(credentialsFile)) {
  console.error(`${credentialsFile} not found. ${START_FIRST}`);
  process.exit(1);
}
const creds = JSON.parse(readFileSync(credentialsFile, 'utf8')) as { baseUrl: string; keys: { actions: string } };
const base = `${creds.baseUrl}/api/v1`;
const auth = { authorization: `Bearer ${creds.keys.actions}` };

async function api<T = any>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(base + p, { method, headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).catch(
    (err: unknown) => {
      throw new Error(`${base} is not answering (${err instanceof Error ? err.message : err}). ${START_FIRST}`);
    },
  );
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  await api('GET', '/health'); // fail fast, before filling the form, when the API is not running
  const { fillTrec2018 } = await import('../test/fixtures/trec/fill.ts');
  const { buildFixture } = await import('../test/fixtures/trec/build-fixtures.ts');
  const { VALUE_SETS } = await import('../test/fixtures/trec/value-sets.ts');
  const name = process.env.DEMO_FIXTURE ?? 'financedPurchase';
  if (!(name in VALUE_SETS)) throw new Error(`unknown DEMO_FIXTURE ${name}; one of ${Object.keys(VALUE_SETS).join(', ')}`);
  const values = VALUE_SETS[name as keyof typeof VALUE_SETS];

  const scan = process.env.DEMO_SCAN === '1';
  console.log(`1. Filling the official TREC 20-18 (value set "${name}", fictional parties)…`);
  // DEMO_SCAN=1: the same contract as page images only, so the local pipeline reads it with tesseract (~45 s).
  const pdf = scan ? await (await buildFixture(name as keyof typeof VALUE_SETS)).imagePdf() : await fillTrec2018(values);
  console.log(`   ${pdf.byteLength} bytes, ${scan ? 'image-only copy (no text layer)' : 'flattened'}`);

  console.log('2. Asking for a presigned upload URL and uploading…');
  const up = (await api('POST', '/documents/upload-url', { fileName: `trec-20-18-${name}.pdf`, contentType: 'application/pdf', sizeBytes: pdf.byteLength })).data;
  const put = await fetch(up.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
  if (!put.ok) throw new Error(`upload refused: ${put.status}`);
  console.log(`   document ${up.documentId} uploaded`);

  console.log('3. Waiting for the extraction job…');
  let job: any;
  for (const started = Date.now(); Date.now() - started < 180_000; await sleep(1000)) {
    const doc = (await api('GET', `/documents/${up.documentId}`)).data;
    if (doc.latestJobId) {
      job = (await api('GET', `/extractions/${doc.latestJobId}`)).data;
      if (job.state === 'completed' || job.state === 'failed') break;
    }
  }
  if (!job || job.state !== 'completed') throw new Error(`extraction did not complete: ${JSON.stringify(job?.error ?? job?.state)}`);
  const r = job.result;
  console.log(`   job ${job.jobId}: ${r.formType}, ${r.pageCount} pages, confidence ${r.confidence}, review ${r.requiresReview ? 'needed' : 'not needed'}`);
  for (const field of FIELD_NAMES) {
    const f = r.fields[field];
    if (f.value === null && !f.warnings.length) continue;
    const cite = f.citations[0] ? `p${f.citations[0].page} "${String(f.citations[0].text).slice(0, 40)}"` : '';
    console.log(`   ${field.padEnd(22)} ${JSON.stringify(f.value).slice(0, 60).padEnd(62)} ${f.confidence.toFixed(2)}  ${cite}${f.warnings.length ? `  ⚠ ${f.warnings.join('; ')}` : ''}`);
  }
  r.warnings.forEach((w: string) => console.log(`   ⚠ ${w}`));

  console.log('4. Applying the extraction to a new deal…');
  const deal = (await api('POST', '/transactions', { extractionJobId: job.jobId, transactionType: 'Purchase', side: 'Buyer' })).data;
  console.log(`   ${deal.id}: ${deal.address} — ${deal.status}`);
  console.log('   Key dates:');
  for (const k of deal.keyDates) console.log(`     ${k.dateValue}  ${k.keyDateType.padEnd(24)} ${k.calculationNotes ?? ''}`);
  console.log('   Parties:');
  for (const c of deal.contacts ?? []) console.log(`     ${String(c.role).padEnd(24)} ${c.name ?? [c.firstName, c.lastName].filter(Boolean).join(' ')}`);
  console.log('   Tasks:');
  for (const t of deal.tasks) console.log(`     ${t.dueDate ?? '(no date)'}  ${t.title}${t.linkedMilestoneName ? `  ↔ ${t.linkedMilestoneName}` : ''}`);

  console.log('5. Checking the deal against what was filled in…');
  const dateOf = (type: string) => deal.keyDates.find((k: any) => k.keyDateType === type)?.dateValue ?? null;
  const namesOf = (role: string) =>
    (deal.contacts ?? []).filter((c: any) => c.role === role).map((c: any) => c.name ?? [c.firstName, c.lastName].filter(Boolean).join(' '));
  const checks: [string, unknown, unknown][] = [
    ['closing date', dateOf('ClosingDate'), values.closingDate],
    ['option-period deadline', dateOf('InspectionDeadline'), values.optionPeriodDays ? addDays(values.effectiveDate, values.optionPeriodDays) : null],
    ['buyers', namesOf('Buyer'), values.buyers],
    ['sellers', namesOf('Seller'), values.sellers],
  ];
  let mismatches = 0;
  for (const [what, got, filled] of checks) {
    const ok = JSON.stringify(got) === JSON.stringify(filled);
    if (!ok) mismatches++;
    console.log(`   ${ok ? '✓' : '✗'} ${what.padEnd(24)} ${JSON.stringify(got)}${ok ? '' : `  (filled in: ${JSON.stringify(filled)})`}`);
  }
  if (mismatches) {
    const review = r.requiresReview ? 'the job asked for review (requiresReview: true); ' : '';
    throw new Error(`${mismatches} value(s) differ from what was filled in: ${review}correct them with \`overrides\` when applying`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
