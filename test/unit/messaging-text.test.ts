/**
 * The pure text rules of messaging: address lists of a send request, HTML ↔ text of a body, the share-link text and
 * its elided form, and the rules-based draft wording (intent → kind, deal facts in the sentences).
 */
import { describe, expect, it } from 'vitest';
import { parseRecipientFields } from '#domain/email-addresses';
import { escapeHtml, textToHtml } from '#domain/html-text';
import { htmlToText } from '#domain/html-to-text';
import { elideToken, shareText } from '#domain/document-share';
import { draftKindOf, draftWording, humanize, spokenDate, type DraftFacts } from '#domain/draft-wording';
import { replySubject } from '#use-cases/messaging/transaction-email';

describe('parseRecipientFields', () => {
  it('splits on commas and semicolons, drops duplicates, and names each bad list', () => {
    const r = parseRecipientFields({ toEmail: 'a@example.com; B@example.com, a@EXAMPLE.com ,', ccAddresses: 'not-an-address', bccAddresses: null }, true);
    expect(r.to).toEqual(['a@example.com', 'B@example.com']);
    expect(r.errors).toEqual({ ccAddresses: 'is not a list of email addresses: not-an-address' });
  });

  it('requires a recipient only when asked', () => {
    expect(parseRecipientFields({}, true).errors).toEqual({ toEmail: 'is required: at least one recipient' });
    expect(parseRecipientFields({}, false).errors).toEqual({});
  });
});

describe('HTML and text bodies', () => {
  it('derives readable text from HTML (paragraphs, lists, links)', () => {
    const text = htmlToText('<p>Hi <b>Maria</b>,</p><ul><li>Survey</li><li>Insurance</li></ul><p><a href="https://x.example/l">the link</a><img src="cid:x"></p>');
    expect(text).toBe('Hi Maria,\n\n * Survey\n * Insurance\n\nthe link [https://x.example/l]');
  });

  it('escapes text into paragraphs', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(textToHtml('One <1>\nline two\n\nPara 2')).toBe('<p>One &lt;1&gt;<br>line two</p>\n<p>Para 2</p>');
  });

  it('prefixes a reply subject once', () => {
    expect(replySubject('Inspection')).toBe('Re: Inspection');
    expect(replySubject('RE: Inspection')).toBe('RE: Inspection');
    expect(replySubject(null)).toBe('Re:');
  });
});

describe('share-link text', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
  const url = `https://api.example/l/${token}`;

  it('uses the message or a default naming the file and property, with the lifetime', () => {
    expect(shareText({ message: null, fileName: 'Survey.pdf', address: '1 Main St', url, hours: 72 })).toBe(`Here is "Survey.pdf" for 1 Main St.\n${url}\n(Secure link, expires in 3 days.)`);
    expect(shareText({ message: '  Signed copy  ', fileName: 'x', address: 'y', url, hours: 1 })).toBe(`Signed copy\n${url}\n(Secure link, expires in 1 hour.)`);
    expect(shareText({ message: null, fileName: 'x', address: 'y', url, hours: 24 })).toContain('expires in 1 day.');
    expect(shareText({ message: null, fileName: 'x', address: 'y', url, hours: 30 })).toContain('expires in 30 hours.');
  });

  it('elides the token everywhere, keeping 4 characters', () => {
    const elided = elideToken(`${url} and again ${token}`, token);
    expect(elided).toBe('https://api.example/l/AbCd… and again AbCd…');
    expect(elided).not.toContain(token);
  });
});

describe('draft wording (rules, no language model)', () => {
  it('reads the intent by keywords, in a fixed order', () => {
    expect(draftKindOf('Remind the buyer about the option period deadline')).toBe('deadline_reminder');
    expect(draftKindOf('ask the seller for the signed disclosure')).toBe('document_request');
    expect(draftKindOf('introduce myself to the listing agent')).toBe('introduction');
    expect(draftKindOf('walkthrough and keys at closing')).toBe('closing');
    expect(draftKindOf('schedule the appraisal appointment')).toBe('scheduling');
    expect(draftKindOf('thank the lender')).toBe('thank_you');
    expect(draftKindOf('check in with the title company')).toBe('follow_up');
    expect(draftKindOf('weekly progress update')).toBe('status_update');
    expect(draftKindOf('hello')).toBe('general');
  });

  const facts: DraftFacts = {
    address: '1207 Live Oak Ln, Austin, TX 78704',
    status: 'Under Contract',
    side: 'Buyer',
    upcoming: [
      { label: 'Inspection deadline', date: '2026-12-01' },
      { label: 'Closing date', date: '2026-12-30' },
    ],
    closingDate: '2026-12-30',
    recipientName: 'Maria Delgado',
    recipientRole: 'Buyer',
    senderName: 'Dana Whitfield',
    additionalContext: 'The inspector needs the gate code.',
  };

  it('fills the kind’s sentences with the deal facts, the recipient and the sender', () => {
    const d = draftWording('deadline_reminder', facts);
    expect(d.subject).toBe('Reminder: Inspection deadline Tuesday, December 1');
    expect(d.bodyText).toBe(
      [
        'Hi Maria,',
        'A quick reminder for 1207 Live Oak Ln, Austin, TX 78704: the inspection deadline is Tuesday, December 1.',
        '- Inspection deadline: Tuesday, December 1\n- Closing date: Wednesday, December 30',
        'The inspector needs the gate code.',
        'Please let me know if you have any questions.',
        'Thank you,\nDana Whitfield',
      ].join('\n\n'),
    );
    expect(d.bodyHtml.startsWith('<p>Hi Maria,</p>')).toBe(true);
    expect(d.smsText.length).toBeLessThanOrEqual(320);
    expect(d.smsText).toContain('Inspection deadline: Tuesday, December 1.');
  });

  it('greets without a name and words every kind', () => {
    for (const kind of ['introduction', 'document_request', 'closing', 'scheduling', 'thank_you', 'follow_up', 'status_update', 'general'] as const) {
      const d = draftWording(kind, { ...facts, recipientName: null, senderName: null, additionalContext: null, upcoming: [] });
      expect(d.bodyText.startsWith('Hello,'), kind).toBe(true);
      expect(d.subject, kind).toContain('1207 Live Oak Ln');
    }
  });

  it('humanizes key-date types and speaks dates', () => {
    expect(humanize('InspectionDeadline')).toBe('Inspection deadline');
    expect(spokenDate('2027-01-15')).toBe('Friday, January 15');
    // The calendar day as written, whatever the machine's zone; a leap day; a date that does not exist is left as is.
    expect(spokenDate('2027-11-07')).toBe('Sunday, November 7');
    expect(spokenDate('2028-02-29')).toBe('Tuesday, February 29');
    expect(spokenDate('2027-02-30')).toBe('2027-02-30');
  });
});
