/**
 * The communication-log PDF (pdf-lib): it opens, carries every message's header lines and text, wraps long text onto
 * further pages with "Page n of N" footers, and prints characters the standard fonts cannot encode as `?`.
 */
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { newCommunication } from '#db/communications';
import { openPdf } from '#ports/ocr/pdfjs';
import { logTime, renderCommunicationLogPdf } from '#use-cases/messaging/communication-log-pdf';
import type { CommunicationLog } from '#use-cases/messaging/communication-log';

const at = new Date('2026-11-23T17:01:12.309Z');
const log = (messages: CommunicationLog['messages']): CommunicationLog => ({
  transaction: { id: 't-1', address: '1207 Live Oak Ln, Austin, TX 78704', status: 'Under Contract' },
  from: null,
  to: null,
  generatedAt: at.toISOString(),
  messages,
});

async function textOf(bytes: Uint8Array): Promise<string[]> {
  const doc = await openPdf(bytes);
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) pages.push((await (await doc.getPage(i)).getTextContent()).items.map((x: any) => x.str).join('\n'));
  await doc.destroy();
  return pages;
}

describe('renderCommunicationLogPdf', () => {
  it('lists each message with its header lines and text', async () => {
    const email = newCommunication(
      {
        transactionId: 't-1',
        channel: 'email',
        direction: 'outbound',
        kind: 'email',
        status: 'sent',
        from: { address: 'deals@tcs.localhost', name: 'Dana Whitfield', contactId: null },
        to: [{ address: 'maria@example.com', name: 'Maria Delgado', contactId: 'c-1' }],
        cc: [{ address: 'title@example.com', name: null, contactId: null }],
        subject: 'Survey received',
        bodyText: 'Café ✓ 家 — fine',
        documents: [{ documentId: 'd-1', fileName: 'Survey.pdf' }],
      },
      at,
    );
    const pages = await textOf(await renderCommunicationLogPdf(log([email])));
    const text = pages.join('\n');
    for (const s of ['Communication log', '1207 Live Oak Ln, Austin, TX 78704', 'Transaction t-1 (Under Contract)', '2026-11-23 17:01 UTC', 'EMAIL outbound', 'From: Dana Whitfield <deals@tcs.localhost>', 'To: Maria Delgado <maria@example.com>', 'Cc: title@example.com', 'Subject: Survey received', 'Documents: Survey.pdf', 'Café ? ? — fine', 'Page 1 of 1']) {
      expect(text).toContain(s);
    }
  });

  it('wraps long text over pages and numbers them', async () => {
    const long = newCommunication({ transactionId: 't-1', channel: 'sms', direction: 'inbound', kind: 'reply', status: 'received', from: { address: '+15125550143', name: null, contactId: null }, bodyText: `${'word '.repeat(4000)}${'x'.repeat(300)}` }, at);
    const bytes = await renderCommunicationLogPdf(log([long]));
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(2);
    const pages = await textOf(bytes);
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(pages.join('').replace(/\s/g, '')).toContain('x'.repeat(300));
  });

  it('says so when the range holds nothing', async () => {
    expect((await textOf(await renderCommunicationLogPdf(log([])))).join('\n')).toContain('No messages in this range.');
    expect(logTime('2026-01-02T03:04:05.000Z')).toBe('2026-01-02 03:04 UTC');
  });
});
