/**
 * Received emails read by postal-mime (shared/ports/inbound-mail-parser.ts): what threading needs from the MIME of
 * real replies, including bodies in charsets other than UTF-8 (ISO-8859-1 quoted-printable, windows-1252 8bit,
 * ISO-2022-JP as Japanese clients send it), RFC 2047 encoded words in Subject and display names, address groups,
 * In-Reply-To/References, attachments beside the body, and HTML-only mail, whose text is derived.
 */
import { describe, expect, it } from 'vitest';
import { parseInboundMail, textOfHtml } from '#ports/inbound-mail-parser';

/** A message from header lines and body chunks (strings as ASCII, Buffers as they are), lines joined with CRLF. */
const eml = (...chunks: (string | Buffer)[]): Buffer =>
  Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c.replace(/\r?\n/g, '\r\n'), 'latin1') : c)));

/** ISO-2022-JP (RFC 1468) bytes of 内覧は火曜日です。 and 契約書: JIS X 0208 between `ESC $ B` and `ESC ( B`. */
const JIS_BODY = Buffer.from('1b244246624d77244f32504d4b467c2447243921231b2842', 'hex');
const JIS_SUBJECT_B64 = 'GyRCN0BMcz1xGyhC';

describe('parseInboundMail', () => {
  it('reads a multipart/alternative UTF-8 reply with an attachment: headers, both bodies, threading ids', async () => {
    const raw = eml(
      'From: =?UTF-8?Q?Mar=C3=ADa_Delgado?= <maria.delgado@example.com>\n',
      'To: Deals: reply+aaaaaaaaaaaaaaaaaaaa@reply.test, "Dana W." <dana@realty.example>;\n',
      'Cc: title@example.com\n',
      'Subject: =?UTF-8?B?UmU6IE9wdGlvbiBwZXJpb2Qg4oCUIEZyaWRheQ==?=\n',
      'Message-ID: <CAF1x2y3@mail.example.com>\n',
      'In-Reply-To: <6f1c2f0e-3d4b-4f7a-9b8e-1a2b3c4d5e6f@tcs.example>\n',
      'References: <root@tcs.example>\n <6f1c2f0e-3d4b-4f7a-9b8e-1a2b3c4d5e6f@tcs.example>\n',
      'MIME-Version: 1.0\n',
      'Content-Type: multipart/mixed; boundary="outer"\n\n',
      '--outer\nContent-Type: multipart/alternative; boundary="alt"\n\n',
      '--alt\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n',
      'Works for me =E2=80=94 see you Friday.\n',
      '--alt\nContent-Type: text/html; charset=utf-8\n\n',
      '<p>Works for me &mdash; see you <b>Friday</b>.</p>\n',
      '--alt--\n',
      '--outer\nContent-Type: application/pdf; name="addendum.pdf"\nContent-Disposition: attachment; filename="addendum.pdf"\nContent-Transfer-Encoding: base64\n\n',
      `${Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64')}\n`,
      '--outer--\n',
    );
    expect(await parseInboundMail(raw)).toEqual({
      messageId: '<CAF1x2y3@mail.example.com>',
      answers: ['<6f1c2f0e-3d4b-4f7a-9b8e-1a2b3c4d5e6f@tcs.example>', '<root@tcs.example>'],
      subject: 'Re: Option period — Friday',
      from: { address: 'maria.delgado@example.com', name: 'María Delgado' },
      to: [
        { address: 'reply+aaaaaaaaaaaaaaaaaaaa@reply.test', name: null },
        { address: 'dana@realty.example', name: 'Dana W.' },
        { address: 'title@example.com', name: null },
      ],
      text: 'Works for me — see you Friday.\n',
      html: '<p>Works for me &mdash; see you <b>Friday</b>.</p>\n',
    });
  });

  it('decodes ISO-8859-1 quoted-printable and encoded words, and a windows-1252 8bit HTML part (€, dashes, quotes)', async () => {
    const raw = eml(
      'From: =?ISO-8859-1?Q?Jos=E9_M=FCller?= <jose@example.de>\n',
      'To: reply+bbbbbbbbbbbbbbbbbbbb@reply.test\n',
      'Subject: =?windows-1252?Q?Re:_Besichtigung_f=FCr_Jos=E9_=96_=93heute=94?=\n',
      'Content-Type: multipart/alternative; boundary="b"\n\n',
      '--b\nContent-Type: text/plain; charset=ISO-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n',
      'Gr=FC=DFe, Jos=E9. Caf=E9 um 10 Uhr, it=92s fine.\n',
      '--b\nContent-Type: text/html; charset=windows-1252\nContent-Transfer-Encoding: 8bit\n\n',
      Buffer.from('<p>Gr\xfc\xdfe \x96 Preis \x80 450</p>\n', 'latin1'),
      '--b--\n',
    );
    const mail = await parseInboundMail(raw);
    expect(mail.from).toEqual({ address: 'jose@example.de', name: 'José Müller' });
    expect(mail.subject).toBe('Re: Besichtigung für José – “heute”');
    expect(mail.text.trim()).toBe('Grüße, José. Café um 10 Uhr, it’s fine.');
    expect(mail.html?.trim()).toBe('<p>Grüße – Preis € 450</p>');
  });

  it('decodes an ISO-2022-JP body and subject (RFC 1468), as Japanese mail clients send them', async () => {
    const raw = eml(
      'From: tanaka@example.jp\nTo: reply+cccccccccccccccccccc@reply.test\n',
      `Subject: =?ISO-2022-JP?B?${JIS_SUBJECT_B64}?=\n`,
      'Content-Type: text/plain; charset=ISO-2022-JP\nContent-Transfer-Encoding: 7bit\n\n',
      JIS_BODY,
      '\r\n',
    );
    const mail = await parseInboundMail(raw);
    expect(mail.subject).toBe('契約書');
    expect(mail.text.trim()).toBe('内覧は火曜日です。');
    expect(mail.html).toBeNull();
  });

  it('derives the text of an HTML-only message and keeps its HTML', async () => {
    const html = '<html><head><style>p{color:red}</style></head><body><p>Closing moved to <b>12/15/2026</b>&nbsp;&amp; funding the same day.</p><div>Thanks,<br>Tom</div></body></html>';
    const mail = await parseInboundMail(eml('From: tom@capitolhomes.example\nTo: reply+dddddddddddddddddddd@reply.test\nSubject: Closing\nContent-Type: text/html; charset=utf-8\n\n', html, '\n'));
    expect(mail.html?.trim()).toBe(html);
    expect(mail.text).toBe('Closing moved to 12/15/2026\u00a0& funding the same day.\n\nThanks,\nTom');
    expect(mail.text).not.toMatch(/color|<|>/);
  });

  it('a message without Message-ID, From or threading headers reads as null, undefined and none', async () => {
    const mail = await parseInboundMail(eml('To: reply+eeeeeeeeeeeeeeeeeeee@reply.test\n\nhello\n'));
    expect(mail).toMatchObject({ messageId: null, from: undefined, answers: [], subject: '', text: 'hello\n', html: null });
  });
});

describe('textOfHtml', () => {
  it('turns blocks and breaks into lines and decodes entities, whatever the HTML holds', async () => {
    expect(await textOfHtml('<p>a &lt;b&gt;</p><p>--inbound-html-text--</p>c<br>d')).toBe('a <b>\n\n--inbound-html-text--\n\nc\nd');
  });
});
