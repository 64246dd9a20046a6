/**
 * The communication log as a ZIP: `communication-log.pdf`, `communication-log.json`, and under `documents/` every
 * deal document the logged messages attached or shared, as stored. The archive is streamed into the documents bucket
 * (shared/ports/archive-upload.ts), each document read from S3 as a stream, so memory does not grow with the
 * documents. PDFs and images are stored without recompression (they are compressed already). Documents beyond
 * `MAX_ZIP_DOCUMENT_BYTES` in all, or no longer stored, are left out and listed in the JSON's `omittedDocuments` with
 * the reason. `storeCommunicationLogZipReport` is the report-zip worker's work (functions/report-zip); the PDF it
 * packs was rendered and stored by the report-pdf worker.
 */
import { findDocument } from '#db/documents';
import { getObjectBytes, getObjectStream, safeFileName } from '#ports/blob-store';
import { startArchiveUpload } from '#ports/archive-upload';
import type { BuiltReport, ZipReportRequest } from '#ports/report-builder';
import { communicationLogJson, type CommunicationLog } from '#use-cases/messaging/communication-log';
import { readCommunicationLog, reportFileName, reportFolderOf } from '#use-cases/messaging/communication-log-file';

/** Most document bytes one archive carries: the API waits for the report-zip worker within its own 29 s. */
export const MAX_ZIP_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** File types stored without deflate: their formats are compressed already. */
const COMPRESSED = /\.(pdf|jpe?g|png|gif|webp|heic|zip|docx|xlsx|pptx|mp4|m4a)$/i;

/** A document in the archive, or left out of it. */
interface ArchivedDocument {
  documentId: string;
  fileName: string;
  path: string | null;
  sizeBytes: number | null;
  omitted: string | null;
}

/**
 * Builds the archive and stores it at `key` in the documents bucket.
 * @param pdf the log already rendered as PDF
 * @returns the archive's size in bytes and how many documents it holds
 * @throws Error from S3 (the partial upload is aborted)
 */
export async function storeCommunicationLogZip(orgId: string, log: CommunicationLog, pdf: Uint8Array, key: string): Promise<{ sizeBytes: number; documentCount: number }> {
  const referenced = new Map(log.messages.flatMap((m) => m.documents).map((d) => [d.documentId, d.fileName]));
  const archive = startArchiveUpload(key);
  try {
    archive.addBytes('communication-log.pdf', pdf, { compress: false });
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
      const object = await getObjectStream(doc.s3Key);
      if (!object) {
        entry.omitted = 'the document is no longer stored';
        continue;
      }
      total += object.sizeBytes;
      let name = safeFileName(doc.name);
      if (used.has(name)) name = `${documentId.slice(0, 8)}-${name}`;
      used.add(name);
      entry.path = `documents/${name}`;
      entry.sizeBytes = object.sizeBytes;
      await archive.addStream(entry.path, object.stream, { compress: !COMPRESSED.test(name), size: object.sizeBytes });
    }
    const json = {
      ...communicationLogJson(log),
      documents: archived.filter((d) => d.path).map(({ omitted: _o, ...d }) => d),
      omittedDocuments: archived.filter((d) => d.omitted).map(({ path: _p, ...d }) => d),
    };
    archive.addBytes('communication-log.json', Buffer.from(JSON.stringify(json, null, 2)), { compress: true });
    const { sizeBytes } = await archive.close();
    return { sizeBytes, documentCount: archived.filter((d) => d.path).length };
  } catch (err) {
    await archive.abort();
    throw err;
  }
}

/**
 * Reads the log `request` names and the PDF report-pdf stored for it, and stores the ZIP beside that PDF.
 * @throws Error for a `pdfKey` outside the deal's reports, or from DynamoDB and S3
 */
export async function storeCommunicationLogZipReport(request: ZipReportRequest): Promise<BuiltReport> {
  const folder = reportFolderOf(request, request.pdfKey);
  const [log, pdf] = await Promise.all([readCommunicationLog(request), getObjectBytes(request.pdfKey)]);
  const fileName = reportFileName(request, 'zip');
  const key = `${folder}${fileName}`;
  const zip = await storeCommunicationLogZip(request.orgId, log, pdf, key);
  return { key, fileName, sizeBytes: zip.sizeBytes, messageCount: log.messages.length, documentCount: zip.documentCount };
}
