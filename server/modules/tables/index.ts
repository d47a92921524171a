import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { asc, eq, sql } from 'drizzle-orm';
import {
  connectionTablesAnswer,
  tableAnswer,
  tableCardsAnswer,
  tableFilterPropsAnswer,
  tablesContract,
} from '../../../common/contract/tables';
import { dataTables } from '../../db/schema';
import { registerActivationRoute } from '../../platform/activation-route';
import { answerRoute } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { DICTIONARY_UPLOAD_MAX_BYTES } from '../../tables/dictionary';
import { companyTables, findTable, selectTables, type TableRow } from '../../tables/records';
import { registerTableChanges } from './changes';
import { registerDictionaryRoutes } from './dictionary';
import { registerQualityRoutes } from './quality';
import { tableFilterBody, tableRepository } from './repository';
import { allowed, idParams } from './routing';

/**
 * Tables registered from connections' endpoints, their data dictionaries, and their data-quality
 * rules and runs (docs/api/tables.md). Served from their contract: the list
 * `/tables/{offset}/{limit}`, the filter `/tables/filters/{offset}/{limit}`, its choices
 * `/tables/filters`, the cards `/tables/topCards`, one `/table/{id}` and the search
 * `/tables/search/{offset}/{limit}`, whose text may be blank (all of them). The module's own: the register
 * `/table` and the edit `/table/{id}`, which read the source and the dictionary; the activation
 * `/table/activate/{id}`, answered `is active`; a connection's tables, the dictionaries and the
 * data-quality rules.
 */
export const tablesModule: EntityModule<TableRow> = {
  contract: tablesContract,
  repository: tableRepository,
  bodies: { filter: tableFilterBody },
  own: ['create', 'update', 'activate', 'deactivate'],
  calls: {
    filterProps: { summary: 'Choices of the table filters', message: 'Table filters', data: tableFilterPropsAnswer.shape.data },
    cards: { summary: 'Counts of tables', message: 'Table cards', data: tableCardsAnswer.shape.data },
    one: { summary: 'One table', message: 'Table' },
  },
  async routes(app: FastifyInstance) {
    const { db } = app.ctx;
    const reading = allowed('read');
    if (!app.hasContentTypeParser('multipart/form-data')) {
      await app.register(multipart, { limits: { files: 1, fileSize: DICTIONARY_UPLOAD_MAX_BYTES, fields: 5, parts: 6 } });
    }

    answerRoute(
      app,
      reading,
      {
        method: 'GET',
        path: '/table/connection/:id',
        summary: 'The tables of a connection',
        params: idParams,
        answer: connectionTablesAnswer,
      },
      async ({ auth, params }) => {
        const rows = await selectTables(db)
          .where(companyTables(auth.companyId, eq(dataTables.connectionId, params.id)))
          .orderBy(asc(sql`lower(${dataTables.name})`));
        return { message: 'Tables of the connection', data: rows };
      },
    );

    registerTableChanges(app);

    registerActivationRoute(app, allowed('update'), {
      method: 'POST',
      path: '/table/activate/:id',
      summary: 'Activate or deactivate a table',
      answer: tableAnswer,
      noun: 'Table',
      model: tablesContract.audit.model,
      find: (companyId, id) => findTable(db, companyId, id),
      write: (tx, companyId, id, isActive) =>
        tx
          .update(dataTables)
          .set({ isActive, updatedAt: new Date() })
          .where(companyTables(companyId, eq(dataTables.id, id))),
    });

    registerDictionaryRoutes(app);
    registerQualityRoutes(app);
  },
};
