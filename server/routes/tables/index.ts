import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { DICTIONARY_UPLOAD_MAX_BYTES } from '../../tables/dictionary';
import { dictionaryRoutes } from './dictionary';
import { tableListRoutes } from './lists';
import { qualityRoutes } from './quality';
import { oneTableRoutes } from './table';

export { TABLE_TAKEN } from './table';

/**
 * Tables registered from connections' endpoints, their data dictionaries, and their data-quality
 * rules and runs (docs/api/tables.md).
 */
export async function tableRoutes(app: FastifyInstance) {
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart, { limits: { files: 1, fileSize: DICTIONARY_UPLOAD_MAX_BYTES, fields: 5, parts: 6 } });
  }
  tableListRoutes(app);
  oneTableRoutes(app);
  dictionaryRoutes(app);
  qualityRoutes(app);
}
