/**
 * A shared document link (`GET /l/{token}`, sent by SMS or in a conversation) opened by its recipient, without
 * credentials (the route is served by functions/public-links/handler.ts). A live link whose document is uploaded
 * gives a download URL valid 5 minutes, so a forwarded or logged redirect soon stops working; an unknown, expired or
 * revoked link, or one whose document is gone, gives nothing, and the page answers the same plain 404 for all (spec
 * "Tenant isolation": a 404 does not show that an identifier is used).
 *
 * Metrics (Count, one per open): `LinksOpened` or `LinksNotFound`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getDocument } from '#db/documents';
import { openShareLink } from '#db/share-links';
import { presignGet } from '#ports/blob-store';
import { metricSet } from '#observability/powertools';

/** Validity of the download URL a link redirects to, seconds. */
export const DOWNLOAD_SECONDS = 300;

/** The share-link metrics (Count; dimension `service` only). */
export const SHARE_LINK_METRICS = metricSet(['LinksOpened', 'LinksNotFound']);

/**
 * Opens the link of `token` (counting the open on the link) and counts the outcome.
 * @param now the request time
 * @returns a presigned GET URL of the document (valid `DOWNLOAD_SECONDS`), or undefined when there is nothing to open
 */
export async function openSharedDocument(token: string, now: Date): Promise<string | undefined> {
  const link = await openShareLink(token, now);
  const doc = link ? await getDocument(link.orgId, link.documentId).catch(() => undefined) : undefined;
  const opened = doc !== undefined && doc.uploadState === 'uploaded';
  SHARE_LINK_METRICS.add(opened ? 'LinksOpened' : 'LinksNotFound', MetricUnit.Count, 1);
  return opened ? presignGet(doc.s3Key, DOWNLOAD_SECONDS, doc.name) : undefined;
}
