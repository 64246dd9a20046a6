/** `GET /l/{token}`: a shared document link, a `302` to a short-lived download URL, or the plain 404. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { openSharedDocument } from '#use-cases/open-share-link';
import { notFound } from './html.ts';

/** Redirects to the shared document (shared/use-cases/open-share-link.ts); an unknown, expired or revoked token is a 404. */
export async function sharedLink(_event: APIGatewayProxyEventV2, token: string, now: Date): Promise<APIGatewayProxyStructuredResultV2> {
  const url = await openSharedDocument(token, now);
  return url ? { statusCode: 302, headers: { location: url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' } : notFound();
}
