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
  type ReportSection,
  type ReportSummary,
  type ReportTable,
} from './document';
import { reportFonts, type TextRun, type Weight } from './fonts';
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

/** Helvetica's ascent, in thousandths of the font size: every run of a line sits on the baseline Helvetica would. */
const HELVETICA_ASCENT = 718;

/** Every text a report's PDF writes, so that the fonts it needs are read before it is laid out. */
function pdfTexts(summary: ReportSummary, heading: string, madeOn: string, sections: ReportSection[]): string[] {
  const texts = [heading, summary.title, summary.company.name, `${summary.period.label} (${summary.timezone})`, madeOn];
  for (const section of sections) {
    texts.push(section.title, ...section.figures.map(([label]) => label));
    for (const table of section.tables) {
      texts.push(table.caption, table.empty, ...table.columns, ...table.rows.flat().filter((cell) => typeof cell === 'string'));
    }
  }
  return texts;
}

/**
 * The report as a PDF: title, company, period, then each section's figures in two columns and
 * its tables. Uncompressed (the files are a few kilobytes) and dated with the report's own time,
 * so the same report always makes the same bytes and its text can be searched. Names in any
 * script are written with the fonts of fonts.ts, which embed only the glyphs used.
 */
export async function reportPdf(stored: ReportSummary, locale: Locale = 'en'): Promise<Buffer> {
  const summary = summaryIn(stored, locale);
  const sections = reportSections(summary, locale);
  const heading = reportHeading(stored, locale);
  const madeAt = new Date(summary.madeAt);
  const madeOn = REPORT_TEXTS[locale].madeOn(madeAt.toISOString().replace('T', ' ').slice(0, 16));
  const fonts = await reportFonts(pdfTexts(summary, heading, madeOn, sections));
  // Loaded at the first report, not with the server: PDFKit and its fonts' parser hold some 30 MB.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: false,
    info: {
      // PDFKit writes a title outside Latin-1 as UTF-16, which every reader shows.
      Title: heading,
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
  // The weight and size the next texts are written in; the colour is the document's own.
  let weight: Weight = 'regular';
  let size = 12;
  const type = (bold: boolean, points: number) => {
    weight = bold ? 'bold' : 'regular';
    size = points;
  };
  const use = (run: TextRun) =>
    typeof run.font === 'string'
      ? doc.font(run.font).fontSize(size)
      : // PDFKit takes a font fontkit has parsed (its types know only files and bytes).
        doc.font(run.font.font as unknown as PDFKit.Mixins.PDFFontSource, run.font.key).fontSize(size);
  const widthOf = (runs: TextRun[]) => runs.reduce((sum, run) => sum + use(run).widthOfString(run.text), 0);
  /** The text's runs, cut with an ellipsis where they would overflow. */
  const fit = (text: string, room: number) => {
    let runs = fonts.runs(text, weight);
    if (widthOf(runs) <= room) return runs;
    let shown = [...text];
    runs = fonts.runs(`${text}…`, weight);
    while (shown.length > 1 && widthOf(runs) > room) {
      shown = shown.slice(0, -1);
      runs = fonts.runs(`${shown.join('')}…`, weight);
    }
    return runs;
  };
  const write = (text: string, x: number, y: number, options: { width?: number; align?: 'left' | 'right' } = {}) => {
    const runs = fit(text, options.width ?? width);
    const [first] = runs;
    if (runs.length === 1 && typeof first.font === 'string') {
      // A text Helvetica shows is written as it always was.
      use(first).text(first.text, x, y, { lineBreak: false, ...options });
      return;
    }
    let at = options.align === 'right' ? x + (options.width ?? width) - widthOf(runs) : x;
    for (const run of runs) {
      use(run).text(run.text, at, y, { lineBreak: false, baseline: -(HELVETICA_ASCENT / 1000) * size });
      at += doc.widthOfString(run.text);
    }
    doc.y = y;
  };

  // Heading.
  doc.fillColor(ACCENT);
  type(true, 20);
  write(summary.title, MARGIN, MARGIN);
  doc.fillColor(INK);
  type(true, 14);
  write(summary.company.name, MARGIN, MARGIN + 28);
  type(false, 11);
  write(`${summary.period.label} (${summary.timezone})`, MARGIN, MARGIN + 48);
  doc.fillColor(MUTED);
  type(false, 9);
  write(madeOn, MARGIN, MARGIN + 64);
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
    doc.fillColor(INK);
    type(true, 10);
    write(table.caption, MARGIN, doc.y);
    doc.y += ROW;
    if (table.rows.length === 0) {
      doc.fillColor(MUTED);
      type(false, 9);
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
      doc.fillColor(INK);
      type(bold, 9);
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

  for (const section of sections) {
    const figureRows = Math.ceil(section.figures.length / 2);
    room(28 + Math.min(figureRows, 4) * ROW);
    doc.fillColor(ACCENT);
    type(true, 13);
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
        doc.fillColor(MUTED);
        type(false, 9.5);
        write(figure[0], x, y, { width: half - 90 });
        doc.fillColor(INK);
        type(true, 9.5);
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
