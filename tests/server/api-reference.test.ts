import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReference, shapeOf, type ReferenceDocument } from '../../server/apikeys/api-reference';
import { API_PREFIX } from '../../server/platform/context';
import { createTestServer, type TestServer } from './harness';

/**
 * docs/api/reference.md is written from the server's OpenAPI document: this test fails when the
 * page and the routes part, and `npm run docs:api` (this test with UPDATE_API_REFERENCE=1)
 * writes it again.
 */
const REFERENCE = path.resolve(__dirname, '../../docs/api/reference.md');

let server: TestServer;
let document: ReferenceDocument;

beforeAll(async () => {
  server = await createTestServer();
  await server.app.ready();
  document = server.app.swagger() as unknown as ReferenceDocument;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the API reference page', () => {
  it('is the one the OpenAPI document writes (npm run docs:api writes it again)', () => {
    const written = apiReference(document, API_PREFIX);
    if (process.env.UPDATE_API_REFERENCE === '1') fs.writeFileSync(REFERENCE, written);
    const committed = fs.existsSync(REFERENCE) ? fs.readFileSync(REFERENCE, 'utf8') : '';
    expect(committed, 'docs/api/reference.md is out of date: run npm run docs:api').toBe(written);
  });

  it('names every operation once, with who may call it', () => {
    const written = apiReference(document, API_PREFIX);
    const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.keys(item).filter((key) => key !== 'parameters'));
    expect(written.split('\n').filter((line) => line.startsWith('| `')).length).toBe(operations.length);
    expect(written).toContain('| `GET /workspaces` | `workspaces.read` |');
    expect(written).toContain('| `GET /health` | public |');
  });

  it('writes shapes short: optional fields marked, null left out, deep fields folded', () => {
    const row = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id', 'tags'],
    };
    const page = {
      type: 'object',
      properties: {
        message: { type: 'string' },
        data: { type: 'object', properties: { rows: { type: 'array', items: row }, count: { type: 'integer' } } },
      },
      required: ['message', 'data'],
    };
    expect(shapeOf(row)).toBe('{ id, note?, tags: [string] }');
    expect(shapeOf(page)).toBe('{ message, data: { rows?: [{ id, note?, tags: [string] }], count? } }');
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, row])) };
    expect(shapeOf(wide).length).toBeLessThan(900);
    expect(shapeOf(wide)).toMatch(/^\{ field0\?, field1\?/);
  });
});
