/**
 * The communication log as a ZIP (fflate): `communication-log.pdf`, `communication-log.json`, and under `documents/`
 * every deal document the logged messages attached or shared, as stored. PDFs are stored without recompression (they
 * are compressed already). Documents beyond `MAX_ZIP_DOCUMENT_BYTES` in all, or no longer stored, are left out and
 * listed in the JSON's `omittedDocuments` with the reason.
 */
import { zipSync, strToU8, type Zippable } from 'fflate';
import { findDocument } from '#db/documents';
import { getObjectBytes, safeFileName } from '#ports/blob-store';
import { communicationLogJson, type CommunicationLog } from '#use-cases/messaging/communication-log';

/** Most document bytes one archive carries (the archive is built in the function's memory). */
export const MAX_ZIP_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** A document in the archive, or left out of it. */
interface ArchivedDocument {
  documentId: string;
  fileName: string;
  path: string | null;
  sizeBytes: number | null;
  omitted: string | null;
}

/**
 * @param pdf the log already rendered as PDF
 * @returns the archive's bytes and how many documents it holds
 */
export async function buildCommunicationLogZip(orgId: string, log: CommunicationLog, pdf: Uint8Array): Promise<{ bytes: Uint8Array; documentCount: number }> {
  const referenced = new Map(log.messages.flatMap((m) => m.documents).map((d) => [d.documentId, d.fileName]));
  const files: Zippable = { 'communication-log.pdf': [pdf, { level: 0 }] };
  const archived: ArchivedDocument[] = [];
  const used = new Set<string>();
  let total = 0;
  for (const [documentId, sentAs] of referenced) {
    const doc = await findDocument(orgId, documentId);
    const entry: ArchivedDocument = { documentId, fileName: doc?.name ?? sentAs, path: null, sizeBytes: doc?.sizeBytes ?? null, omitted: null };
    archived.push(entry);
    if (!doc || doc.uploadState !== 'uploaded') {
      entry.omitted = 'the document is no longer stored';
      continue;
    }
    if (total + (doc.sizeBytes ?? 0) > MAX_ZIP_DOCUMENT_BYTES) {
      entry.omitted = `the archive holds at most ${MAX_ZIP_DOCUMENT_BYTES / 1024 / 1024} MB of documents; download it from the deal`;
      continue;
    }
    const bytes = await getObjectBytes(doc.s3Key);
    total += bytes.length;
    let name = safeFileName(doc.name);
    if (used.has(name)) name = `${documentId.slice(0, 8)}-${name}`;
    used.add(name);
    entry.path = `documents/${name}`;
    entry.sizeBytes = bytes.length;
    files[entry.path] = [bytes, { level: /\.pdf$/i.test(name) ? 0 : 6 }];
  }
  const json = {
    ...communicationLogJson(log),
    documents: archived.filter((d) => d.path).map(({ omitted: _o, ...d }) => d),
    omittedDocuments: archived.filter((d) => d.omitted).map(({ path: _p, ...d }) => d),
  };
  files['communication-log.json'] = strToU8(JSON.stringify(json, null, 2));
  return { bytes: zipSync(files), documentCount: archived.filter((d) => d.path).length };
}
