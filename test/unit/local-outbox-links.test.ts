/**
 * `npm run outbox` prints an email's links decoded (lib/local/outbox.ts): a stored `.eml` in quoted-printable breaks
 * a long URL across soft line breaks and writes `=` as `=3D`, so the raw file cannot be copied from; the list reads
 * the decoded text and HTML parts instead, and `mail -- reply` finds the email by subject (lib/local/mail-reply.ts).
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOutbox, linksOf, readEmails } from '#lib/local/outbox';
import { findEmail, replySubject } from '#lib/local/mail-reply';
import { localMessagingPaths } from '#lib/local/messaging';

const LINK = 'https://tcs.example/d/4f1c0a9e7b3d2c6e8a5f1b0d9c7e3a2f6b8d4c1e0a9f7b5d3c2e1a0f9b8c7d6e?utm_source=email&utm_campaign=seller-disclosures';
let dataDir: string;
let raw: string;

async function store(name: string, mail: ConstructorParameters<typeof MailComposer>[0], receivedAt: string): Promise<string> {
  const bytes = await new MailComposer(mail).compile().build();
  const dir = localMessagingPaths(dataDir).mailDir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.eml`), bytes);
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ file: `${name}.eml`, from: 'deals@tcs.localhost', to: ['pat@example.com'], receivedAt }));
  return bytes.toString('utf8');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-links-'));
  raw = await store(
    '2026-11-26T17-00-00-000Z-aaaa',
    {
      from: 'Dana <deals@tcs.localhost>',
      to: 'pat@example.com',
      replyTo: 'reply+tok123@reply.tcs.localhost',
      subject: 'Seller disclosures for 1207 Live Oak Ln',
      text: `Hi Pat, the seller's disclosures are ready: ${LINK}. The link expires in 14 days.`,
      html: `<p>Hi Pat, <a href="${LINK.replace(/&/g, '&amp;')}">open the disclosures</a>, or <a href="https://tcs.example/help">get help</a>.</p>`,
      textEncoding: 'quoted-printable',
    },
    '2026-11-26T17:00:00.000Z',
  );
  await store('2026-11-26T18-00-00-000Z-bbbb', { from: 'pat@example.com', to: 'reply+tok123@reply.tcs.localhost', subject: 'Re: Seller disclosures for 1207 Live Oak Ln', text: 'Thanks' }, '2026-11-26T18:00:00.000Z');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('outbox links', () => {
  it('the raw .eml does not hold the link intact (quoted-printable), the list does', async () => {
    expect(raw).not.toContain(LINK);
    const [sent] = await readEmails(dataDir);
    expect(sent).toMatchObject({ subject: 'Seller disclosures for 1207 Live Oak Ln', replyTo: 'reply+tok123@reply.tcs.localhost' });
    expect(sent!.links).toEqual([LINK, 'https://tcs.example/help']);
    const lines = formatOutbox(await readEmails(dataDir)).split('\n');
    expect(lines[1]).toBe(`    link: ${LINK}`);
    expect(lines).toHaveLength(4);
  });

  it('takes a link out of prose without its trailing punctuation, and HTML entities decoded', () => {
    expect(linksOf('See https://a.example/x?y=1. Or (https://b.example/z).', '<a href="https://c.example/?a=1&amp;b=2">c</a>')).toEqual(['https://a.example/x?y=1', 'https://b.example/z', 'https://c.example/?a=1&b=2']);
  });
});

describe('mail reply: which email', () => {
  it('finds the newest email by words of its subject, preferring one with a reply address, or by its .eml file', async () => {
    expect((await findEmail(dataDir, 'seller disclosures'))!.parsed.replyTo?.value[0]?.address).toBe('reply+tok123@reply.tcs.localhost');
    expect((await findEmail(dataDir, '2026-11-26T18-00-00-000Z-bbbb.eml'))!.parsed.subject).toBe('Re: Seller disclosures for 1207 Live Oak Ln');
    expect(await findEmail(dataDir, 'no such subject')).toBeUndefined();
  });

  it('adds one Re: to the subject', () => {
    expect(replySubject('Option period ends Friday')).toBe('Re: Option period ends Friday');
    expect(replySubject('RE: Option period')).toBe('RE: Option period');
  });
});
