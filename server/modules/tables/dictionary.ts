import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { dictionaryListAnswer } from '../../../common/contract/answers/dictionary';
import { tablesContract } from '../../../common/contract/tables';
import { recordAudit } from '../../audit';
import { tableColumns } from '../../db/schema';
import { badRequest, HttpError } from '../../http/errors';
import { orderedPage, searching } from '../../http/lists';
import { actionRoute } from '../../platform/action-route';
import { registerListRoutes } from '../../platform/list-routes';
import { applyDictionaryEdits, dictionaryCsv, DICTIONARY_UPLOAD_MAX_BYTES, readDictionaryUpload } from '../../tables/dictionary';
import { dictionaryOf, findTable, selectDictionary, wholeDictionary } from '../../tables/records';
import { allowed, tablePageParams } from './routing';

const byPosition = [asc(tableColumns.position), asc(tableColumns.name)];
const { dictionaryCsv: csvAction, uploadDictionary: uploadAction } = tablesContract.actions;

/**
 * A table's data dictionary: its pages and search, and its download and upload as CSV, the
 * contract's actions `/table/dictionary/{id}` (a file answered) and `/tables/dictionary/upload/{id}`
 * (a file taken, read from its form here).
 */
export function registerDictionaryRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;
  const reading = allowed('read');
  const updating = allowed('update');

  registerListRoutes(app, reading, {
    answer: dictionaryListAnswer,
    message: 'Data dictionary',
    params: tablePageParams,
    page: async (companyId, where, { id, offset, limit }) => {
      await findTable(db, companyId, id);
      const entries = {
        select: () => selectDictionary(db),
        where: dictionaryOf(companyId, id, where),
        order: byPosition,
        countFrom: tableColumns,
      };
      return orderedPage(db, entries, offset, limit);
    },
    list: { path: '/tables/dataDictionary/tableId/:id/:offset/:limit', summary: "A table's data dictionary, by position" },
    search: {
      path: '/tables/dataDictionary/search/tableId/:id/:offset/:limit',
      summary: "Search a table's data dictionary",
      where: (text) => searching([tableColumns.name, tableColumns.description, tableColumns.businessName, tableColumns.owner], text),
    },
  });

  actionRoute(app, reading, csvAction, async ({ auth: { companyId }, params }) => {
    const table = await findTable(db, companyId, params.id);
    const csv = dictionaryCsv(await wholeDictionary(db, companyId, table.id));
    const file = `${table.name.replace(/[^\w.-]+/g, '_') || 'table'}-dictionary.csv`;
    return {
      body: `\uFEFF${csv}\r\n`,
      type: 'text/csv; charset=utf-8',
      headers: { 'content-disposition': `attachment; filename="${file}"`, 'cache-control': 'no-store' },
    };
  });

  actionRoute(app, updating, uploadAction, async ({ auth, params, request }) => {
    const table = await findTable(db, auth.companyId, params.id);
    if (!request.isMultipart()) throw badRequest('file: send the CSV as a file of a multipart/form-data body');
    const tooLarge = () => new HttpError(413, `file: must be at most ${DICTIONARY_UPLOAD_MAX_BYTES / 1024 / 1024} MB`);
    let text: string;
    try {
      const file = await request.file();
      if (!file) throw badRequest('file: no file was sent');
      const bytes = await file.toBuffer();
      if (file.file.truncated) throw tooLarge();
      text = bytes.toString('utf8');
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const code = (err as { code?: string }).code ?? '';
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT_REACHED' || code === 'FST_PARTS_LIMIT_REACHED') throw badRequest('file: send one file only');
      throw badRequest('file: the multipart form could not be read');
    }
    if (text.includes('\u0000')) throw badRequest('file: this is not a text file; send a CSV file');
    const dictionary = await wholeDictionary(db, auth.companyId, table.id);
    const read = await readDictionaryUpload(text, new Set(dictionary.map((entry) => entry.name)));
    if (!read.ok)
      throw badRequest(
        read.problems.slice(0, 50).join('; ') + (read.problems.length > 50 ? `; and ${read.problems.length - 50} more` : ''),
      );
    const outcome = await db.transaction(async (tx) => {
      const applied = await applyDictionaryEdits(tx, auth.companyId, table.id, auth.userId, dictionary, read.edits);
      if (applied.updated > 0) {
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'table',
          operation: 'upload_dictionary',
          recordId: table.id,
          changes: { columns: applied.changes },
        });
      }
      return applied;
    });
    return {
      message: `${outcome.updated} ${outcome.updated === 1 ? 'entry' : 'entries'} updated, ${outcome.unchanged} unchanged`,
      data: { updated: outcome.updated, unchanged: outcome.unchanged },
    };
  });
}
