import PDFDocument from 'pdfkit';
import { toCsv } from '../../common/csv';
import type { Locale } from '../../common/locales';
import type { ReportFormat } from '../../common/schemas/reports';
import {
  formatCell,
  formatNumber,
  reportHeading,
  reportSections,
  summaryIn,
  type Cell,
  type ReportSummary,
  type ReportTable,
} from './document';
import { periodFileStem } from './period';
import { REPORT_TEXTS } from './texts';

/** A report's attachment: the figures as CSV or as a PDF of a page or two. */
export interface ReportFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export const CONTENT_TYPES: Record<ReportFormat, string> = { csv: 'text/csv; charset=utf-8', pdf: 'application/pdf' };

/** The report as a file, in a language (English unless asked; the file name stays in English, for every system to keep). */
export async function reportFile(summary: ReportSummary, format: ReportFormat, locale: Locale = 'en'): Promise<ReportFile> {
  const stem = `${summary.title.toLowerCase().replace(/\s+/g, '-')}-${summary.company.hostname}-${periodFileStem(
    { start: new Date(summary.period.start), end: new Date(summary.period.end) },
    summary.timezone,
  )}`;
  return {
    fileName: `${safeFileName(stem)}.${format}`,
    contentType: CONTENT_TYPES[format],
    content: format === 'csv' ? reportCsv(summary, locale) : await reportPdf(summary, locale),
  };
}

/** Letters, digits, dot, dash and underscore only: a name every file system and mail client keeps as it is. */
export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 150) || 'report'
  );
}

/**
 * One table of four columns (section, figure, detail, value), so a spreadsheet can filter and
 * pivot it: a figure has no detail; a row of a table (a failing workflow, a failed check) names
 * it in `detail`. Quoted and safe from spreadsheet formulas (common/csv.ts); a byte-order mark
 * makes spreadsheets read it as UTF-8.
 */
export function reportCsv(stored: ReportSummary, locale: Locale = 'en'): Buffer {
  const summary = summaryIn(stored, locale);
  const words = REPORT_TEXTS[locale].csv;
  const rows: Cell[][] = [
    [words.report, words.title, '', summary.title],
    [words.report, words.company, '', summary.company.name],
    [words.report, words.period, '', summary.period.label],
    [words.report, words.start, '', summary.period.start],
    [words.report, words.end, '', summary.period.end],
    [words.report, words.zone, '', summary.timezone],
    [words.report, words.madeAt, '', summary.madeAt],
  ];
  for (const section of reportSections(summary, locale)) {
    for (const [label, value] of section.figures) rows.push([section.title, label, '', value]);
    for (const table of section.tables) {
      for (const row of table.rows) rows.push([section.title, table.caption, row.slice(0, -1).join(' / '), row[row.length - 1]]);
    }
  }
  return Buffer.from(`\uFEFF${toCsv(['section', 'figure', 'detail', 'value'], rows)}\r\n`, 'utf8');
}

// ---- PDF ------------------------------------------------------------------------------------------

const MARGIN = 50;
const INK = '#1f2933';
const MUTED = '#5f6b7a';
const RULE = '#c9d2dc';
const BAND = '#eef2f6';
const ACCENT = '#1565c0';

/**
 * The characters the PDF's built-in Helvetica can show (WinAnsi: Latin-1 and a few typographic
 * marks); anything else becomes "?" rather than a wrong glyph.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function pdfText(text: string): string {
  return [...text].map((c) => (c.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRAS.has(c) ? c : '?')).join('');
}

/**
 * The report as a PDF: title, company, period, then each section's figures in two columns and
 * its tables. Uncompressed (the files are a few kilobytes) and dated with the report's own time,
 * so the same report always makes the same bytes and its text can be searched.
 */
export function reportPdf(stored: ReportSummary, locale: Locale = 'en'): Promise<Buffer> {
  const summary = summaryIn(stored, locale);
  const madeAt = new Date(summary.madeAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: false,
    info: {
      Title: pdfText(reportHeading(stored, locale)),
      Author: 'DataOps Console',
      Creator: 'DataOps Console',
      Producer: 'DataOps Console',
      CreationDate: madeAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;
  const room = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };
  const write = (text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(fit(text, options.width ?? width), x, y, { lineBreak: false, ...options });
  const fit = (text: string, room: number) => {
    let shown = pdfText(text);
    if (doc.widthOfString(shown) <= room) return shown;
    while (shown.length > 1 && doc.widthOfString(`${shown}…`) > room) shown = shown.slice(0, -1);
    return `${shown}…`;
  };

  // Heading.
  doc.fillColor(ACCENT).font('Helvetica-Bold').fontSize(20);
  write(summary.title, MARGIN, MARGIN);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(14);
  write(summary.company.name, MARGIN, MARGIN + 28);
  doc.font('Helvetica').fontSize(11);
  write(`${summary.period.label} (${summary.timezone})`, MARGIN, MARGIN + 48);
  doc.fillColor(MUTED).fontSize(9);
  write(REPORT_TEXTS[locale].madeOn(madeAt.toISOString().replace('T', ' ').slice(0, 16)), MARGIN, MARGIN + 64);
  doc
    .moveTo(MARGIN, MARGIN + 82)
    .lineTo(MARGIN + width, MARGIN + 82)
    .lineWidth(1)
    .strokeColor(ACCENT)
    .stroke();
  doc.y = MARGIN + 96;

  const ROW = 16;
  const drawTable = (table: ReportTable) => {
    room(ROW * 3);
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(10);
    write(table.caption, MARGIN, doc.y);
    doc.y += ROW;
    if (table.rows.length === 0) {
      doc.fillColor(MUTED).font('Helvetica').fontSize(9);
      write(table.empty, MARGIN + 8, doc.y);
      doc.y += ROW + 4;
      return;
    }
    // The last column holds the figure, right-aligned; the others share the rest of the width.
    const valueWidth = 90;
    const textWidth = (width - valueWidth) / (table.columns.length - 1);
    const drawRow = (cells: string[], bold: boolean, band: boolean) => {
      room(ROW);
      const y = doc.y;
      if (band) doc.rect(MARGIN, y - 3, width, ROW).fill(BAND);
      doc
        .fillColor(INK)
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(9);
      cells.forEach((cell, index) => {
        const last = index === cells.length - 1;
        const x = last ? MARGIN + width - valueWidth : MARGIN + index * textWidth + 4;
        write(cell, x, y, { width: last ? valueWidth - 4 : textWidth - 8, align: last ? 'right' : 'left' });
      });
      doc.y = y + ROW;
    };
    drawRow(table.columns, true, true);
    table.rows.forEach((row) =>
      drawRow(
        row.map((cell) => formatCell(cell, locale)),
        false,
        false,
      ),
    );
    doc
      .moveTo(MARGIN, doc.y - 2)
      .lineTo(MARGIN + width, doc.y - 2)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y += 6;
  };

  for (const section of reportSections(summary, locale)) {
    const figureRows = Math.ceil(section.figures.length / 2);
    room(28 + Math.min(figureRows, 4) * ROW);
    doc.fillColor(ACCENT).font('Helvetica-Bold').fontSize(13);
    write(section.title, MARGIN, doc.y);
    doc.y += 20;
    // Figures in two columns of label and value.
    const half = width / 2;
    for (let row = 0; row < figureRows; row++) {
      room(ROW);
      const y = doc.y;
      for (let column = 0; column < 2; column++) {
        const figure = section.figures[column * figureRows + row];
        if (!figure) continue;
        const x = MARGIN + column * half;
        doc.fillColor(MUTED).font('Helvetica').fontSize(9.5);
        write(figure[0], x, y, { width: half - 90 });
        doc.fillColor(INK).font('Helvetica-Bold').fontSize(9.5);
        write(formatNumber(figure[1], locale), x + half - 90, y, { width: 70, align: 'right' });
      }
      doc.y = y + ROW;
    }
    doc.y += 6;
    section.tables.forEach(drawTable);
    doc.y += 8;
  }

  doc.end();
  return done;
}
