/**
 * The communication log as a PDF (pdf-lib, the standard Helvetica fonts): a title block with the deal and the range,
 * then every message in time order with its channel, direction, status, parties, subject, documents and text, and
 * "Page n of N" footers. The standard fonts encode WinAnsi only, so any other character is printed as `?`.
 * `storeCommunicationLogPdf` is the report-pdf worker's work (functions/report-pdf).
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Communication, Party } from '#db/communications';
import type { CommunicationLog } from '#use-cases/messaging/communication-log';
import { newReportFolder, readCommunicationLog, reportFileName } from '#use-cases/messaging/communication-log-file';
import { putObject } from '#ports/blob-store';
import type { BuiltReport, ReportRequest } from '#ports/report-builder';

const PAGE = { width: 612, height: 792 }; // US Letter, points
const MARGIN = 54;
const WIDTH = PAGE.width - 2 * MARGIN;
const GREY = rgb(0.4, 0.4, 0.4);

/** `2026-11-23T17:01:12.309Z` → `2026-11-23 17:01 UTC`. */
export const logTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const partyText = (p: Party) => (p.name ? `${p.name} <${p.address}>` : p.address);

/** Lays out lines top to bottom, starting a new page when one is full. */
class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
    private readonly charset: Set<number>,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
  }

  /** Only characters the font can encode (others become `?`); tabs become spaces. */
  private clean(text: string): string {
    return [...text.replace(/\t/g, '    ').replace(/\r/g, '')].map((c) => (this.charset.has(c.codePointAt(0)!) ? c : '?')).join('');
  }

  /** `text` broken into lines that fit `width` (words longer than a line are cut). */
  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of this.clean(text).split('\n')) {
      let line = '';
      for (const word of paragraph.split(/(?<= )/)) {
        if (font.widthOfTextAtSize(line + word, size) <= width) {
          line += word;
          continue;
        }
        if (line) lines.push(line.trimEnd());
        line = word;
        while (font.widthOfTextAtSize(line, size) > width) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  /** Writes `text`, wrapped, in the given style. */
  text(text: string, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number } = {}) {
    const size = opts.size ?? 9.5;
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const indent = opts.indent ?? 0;
    for (const line of this.wrap(text, font, size, WIDTH - indent)) {
      if (this.y - size < MARGIN + 14) this.newPage();
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: opts.color ?? rgb(0, 0, 0) });
    }
  }

  gap(points: number) {
    this.y -= points;
  }

  rule() {
    if (this.y < MARGIN + 30) return this.newPage();
    this.gap(6);
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: PAGE.width - MARGIN, y: this.y }, thickness: 0.5, color: GREY });
    this.gap(4);
  }

  /** "Page n of N" on every page. */
  footers() {
    const pages = this.doc.getPages();
    pages.forEach((p, i) => p.drawText(`Page ${i + 1} of ${pages.length}`, { x: MARGIN, y: MARGIN - 24, size: 8, font: this.fonts.regular, color: GREY }));
  }
}

function writeMessage(w: Writer, m: Communication) {
  w.text(`${logTime(m.createdAt)}   ${m.channel.toUpperCase()} ${m.direction}   ${m.status}${m.statusDetail ? ` (${m.statusDetail})` : ''}`, { bold: true, size: 10 });
  w.text(`From: ${partyText(m.from) || '(unknown)'}`, { color: GREY });
  if (m.to.length) w.text(`To: ${m.to.map(partyText).join(', ')}`, { color: GREY });
  if (m.cc.length) w.text(`Cc: ${m.cc.map(partyText).join(', ')}`, { color: GREY });
  if (m.bcc.length) w.text(`Bcc: ${m.bcc.map(partyText).join(', ')}`, { color: GREY });
  if (m.subject) w.text(`Subject: ${m.subject}`, { bold: true });
  if (m.documents.length) w.text(`Documents: ${m.documents.map((d) => d.fileName).join(', ')}`, { color: GREY });
  w.gap(3);
  w.text(m.bodyText || '(no text)', { indent: 8 });
  w.rule();
}

/** The log as PDF bytes. */
export async function renderCommunicationLogPdf(log: CommunicationLog): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(`Communication log: ${log.transaction.address}`);
  doc.setCreator('Transaction-Coordination Service');
  doc.setCreationDate(new Date(log.generatedAt));
  const w = new Writer(doc, { regular, bold }, new Set(regular.getCharacterSet()));
  w.text('Communication log', { bold: true, size: 18 });
  w.text(log.transaction.address, { bold: true, size: 12 });
  w.text(`Transaction ${log.transaction.id} (${log.transaction.status})`, { color: GREY });
  w.text(`Messages ${log.from ? `from ${logTime(log.from)}` : 'from the start'} ${log.to ? `to ${logTime(log.to)}` : 'to now'}: ${log.messages.length}. Generated ${logTime(log.generatedAt)}.`, { color: GREY });
  w.rule();
  for (const m of log.messages) writeMessage(w, m);
  if (!log.messages.length) w.text('No messages in this range.');
  w.footers();
  return doc.save();
}

/**
 * Reads the log `request` names, renders it and stores the PDF in a new report folder (`reports/<orgId>/<transactionId>/<reportId>/`).
 * @throws Error from DynamoDB or S3
 */
export async function storeCommunicationLogPdf(request: ReportRequest): Promise<BuiltReport> {
  const log = await readCommunicationLog(request);
  const pdf = await renderCommunicationLogPdf(log);
  const fileName = reportFileName(request, 'pdf');
  const key = `${newReportFolder(request)}${fileName}`;
  await putObject(key, pdf, 'application/pdf');
  return { key, fileName, sizeBytes: pdf.length, messageCount: log.messages.length, documentCount: 0 };
}
