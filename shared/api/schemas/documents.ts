/** Request fields of the document operations (designed here; spec "Documents and extractions"). */
import * as z from '#api/zod';
import { classifyText, DOCUMENT_TYPES, PDF_CONTENT_TYPE } from '#domain/documents';

/** A stored file name (shared/api/schemas/names.ts: NFC, no control characters or path separators). */
export { fileName } from '#api/schemas/names';

/** MIME type: only `application/pdf` is accepted (extraction reads PDFs); defaults to it. */
export const contentType = () =>
  z._default(
    z.string().check(z.maxLength(255), z.refine((v: string) => v.trim().toLowerCase() === PDF_CONTENT_TYPE, `must be ${PDF_CONTENT_TYPE}: only PDF documents are accepted`)),
    PDF_CONTENT_TYPE,
  );

/**
 * A document type (vocabulary designed here, see shared/domain/documents.ts): a vocabulary value, or a phrase
 * naming one (e.g. "Earnest Money Receipt").
 */
export const documentType = () =>
  z.string().check(
    z.trim(),
    z.minLength(1),
    z.maxLength(100),
    z.refine((v: string) => classifyText(v) !== undefined, `must name a document type: ${DOCUMENT_TYPES.join(', ')}`),
  );
