import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { choice } from '../../common/contract/answers';
import { defineAction, defineContract } from '../../common/contract/define';
import { buildApp } from '../../server/app';
import { actionRoute } from '../../server/platform/action-route';
import type { EntityModule, EntityScope } from '../../server/platform/entity-routes';
import { companyTableRepository } from '../../server/platform/table-repository';
import { labelRow, labelsContract, type Label } from '../sample/labels-contract';
import { labels, LABELS_SQL, labelsModule } from '../sample/labels-module';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin, userWithPolicies } from './helpers';

/**
 * What a module may say beyond its contract (server/platform/entity-routes.ts), proven on the
 * sample labels (tests/sample): the checks made at start, who may call, parameter names, texts,
 * bodies, actions, query searches and the calls a module keeps for itself.
 */

let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await createTestServer({}, { modules: [labelsModule], moduleSql: LABELS_SQL });
  adminToken = (await signInAdmin(server)).accessToken!;
  const admin = (path: string, body: unknown) => call(server, 'POST', path, { token: adminToken, body });
  for (const [name, colour] of [
    ['Urgent', 'red'],
    ['Later', 'blue'],
    ['Archive', 'green'],
  ])
    await admin('/label', { name, colour });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a module beyond its contract', () => {
  it('is refused at start when its contract cannot be served as written', async () => {
    const { filter: _filter, ...withoutFilterBody } = labelsContract.bodies;
    const noFilterBody = { ...labelsModule, contract: { ...labelsContract, bodies: withoutFilterBody } };
    await expect(buildApp(server.app.ctx, { modules: [noFilterBody] })).rejects.toThrow(
      'The contract of labels has a filter route but no filter body',
    );
    const nothingSortable = { ...labelsModule, contract: { ...labelsContract, fields: [{ source: 'name', type: 'text' as const }] } };
    await expect(buildApp(server.app.ctx, { modules: [nothingSortable] })).rejects.toThrow(
      'The contract of labels orders by {field}, but none of its fields is sortable',
    );
    const cannotReadOne = { ...labelsModule, repository: { ...labelsModule.repository, one: undefined } };
    await expect(buildApp(server.app.ctx, { modules: [cannotReadOne] })).rejects.toThrow(
      'The contract of labels names calls on one record, but its repository cannot read one',
    );
  });

  it('builds the repository of a plain company table only from names its table holds', () => {
    const misspelt = {
      ...labelsContract,
      fields: [
        { source: 'colour', type: 'status' as const, sortable: true },
        { source: 'title', type: 'text' as const, searchable: true },
      ],
    };
    expect(() => companyTableRepository({ contract: misspelt, table: labels })).toThrow(
      'The searchable field of labels names "title", which is not a column of its table',
    );
    const { row: _row, ...rowless } = labelsContract;
    expect(() => companyTableRepository({ contract: rowless, table: labels })).toThrow('The contract of labels has no row schema');
    expect(() => companyTableRepository({ contract: labelsContract, table: labels, related: { owner: 'owner' as 'ownerId' } })).toThrow(
      'The related list owner of labels names "owner"',
    );
  });

  it('serves what its module says beyond the contract: who may call, a parameter name, texts, a body, the filter without its sort', async () => {
    const { filter: filterBody, ...otherBodies } = labelsContract.bodies;
    // The labels again, read-only, under other paths: a list every signed-in user may read.
    const colourTags: EntityModule<Label> = {
      contract: defineContract({
        name: 'colour-tags',
        noun: { one: 'tag', many: 'tags' },
        row: labelRow,
        fields: labelsContract.fields,
        bodies: otherBodies,
        routes: {
          list: '/tags/{offset}/{limit}',
          filter: { path: '/tags/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'name', order: 'ASC' } },
          search: '/tags/search/{offset}/{limit}/{search}',
          filterProps: '/tags/colours',
        },
        policy: { resource: 'labels', label: 'Labels', actions: ['read'], order: 99 },
      }),
      repository: {
        list: labelsModule.repository.list,
        filter: labelsModule.repository.filter,
        search: (scope, text, request) => labelsModule.repository.filter!(scope, { search: text }, request),
        filterProps: labelsModule.repository.filterProps,
      },
      bodies: { filter: filterBody },
      access: 'signed-in',
      tag: 'Colour tags',
      params: { search: 'text' },
      unsortedFilter: true,
      calls: { filterProps: { summary: 'The colours tags come in', message: 'Colours', data: z.object({ colour: z.array(choice) }) } },
    };
    const app = await buildApp(server.app.ctx, { modules: [colourTags], checkAnswers: true });
    try {
      const plain = await userWithPolicies(server, adminToken, 'no.labels@acme.test', []);
      const on = { ...server, app };
      const get = (path: string) => call(on, 'GET', path, { token: plain.token });
      const names = (answer: { json(): { data: { rows: Label[] } } }) => answer.json().data.rows.map((row) => row.name);
      const stored = (await server.db.select().from(labels).where(eq(labels.companyId, server.company.companyId))).map((row) => row.name);

      expect((await call(server, 'GET', '/labels/0/10', { token: plain.token })).statusCode).toBe(403);
      const list = await get('/tags/0/10');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().message).toBe('Tags');
      expect(names(list)).toEqual([...stored].sort());
      expect((await call(on, 'GET', '/tags/0/10')).statusCode).toBe(401);

      expect(names(await get(`/tags/search/0/10/${stored[0].slice(0, 3)}`))).toEqual(
        stored.filter((name) => name.includes(stored[0].slice(0, 3))),
      );
      const blank = await get('/tags/search/0/10/%20');
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toBe('text: is required');

      const sorted = await call(on, 'POST', '/tags/filter/0/10/desc/name', { token: plain.token, body: {} });
      expect(names(sorted)).toEqual([...stored].sort().reverse());
      const unsorted = await call(on, 'POST', '/tags/filter/0/10', { token: plain.token, body: {} });
      expect(names(unsorted)).toEqual([...stored].sort());
      const badOrder = await call(on, 'POST', '/tags/filter/0/10/UP/name', { token: plain.token, body: {} });
      expect(badOrder.json().message).toBe('order: must be ASC or DESC');

      expect((await get('/tags/colours')).json()).toMatchObject({ message: 'Colours', data: { colour: expect.any(Array) } });

      const document = app.swagger() as { paths: Record<string, Record<string, { summary?: string; tags?: string[] }>> };
      const summaries = Object.entries(document.paths)
        .filter(([path]) => path.includes('/tags'))
        .flatMap(([path, methods]) => Object.values(methods).map((operation) => `${path} ${operation.summary} [${operation.tags}]`));
      expect(summaries).toEqual([
        '/api/v1/tags/{offset}/{limit} List the tags [Colour tags]',
        '/api/v1/tags/search/{offset}/{limit}/{text} Search the tags [Colour tags]',
        '/api/v1/tags/filter/{offset}/{limit}/{order}/{field} Filter and sort the tags [Colour tags]',
        '/api/v1/tags/filter/{offset}/{limit} Filter the tags [Colour tags]',
        '/api/v1/tags/colours The colours tags come in [Colour tags]',
      ]);
    } finally {
      await app.close();
    }
  });

  it('serves its actions from their declaration, a query search that may be blank, and the calls it keeps for itself', async () => {
    // The labels again under other paths: one label is the module's own call, and a colour change is an action.
    const recolour = defineAction({
      path: '/marks/{id}/colour/{colour}',
      method: 'PUT',
      summary: 'Give a mark another colour',
      params: { colour: z.enum(['red', 'blue', 'green'], { error: 'must be red, blue or green' }) },
      data: labelRow,
    });
    const marks: EntityModule<Label> = {
      contract: defineContract({
        name: 'marks',
        row: labelRow,
        fields: labelsContract.fields,
        routes: { list: '/marks/{offset}/{limit}', search: '/marks/search/{offset}/{limit}?q={search}', one: '/mark/{id}' },
        policy: { resource: 'labels', label: 'Labels', actions: ['read', 'update'], order: 99 },
        actions: { recolour },
      }),
      repository: {
        list: labelsModule.repository.list,
        search: (scope, text, request) => labelsModule.repository.filter!(scope, text ? { search: text } : {}, request),
        one: labelsModule.repository.one,
      },
      own: ['one'],
      apiKeys: false,
      routes(app) {
        app.get('/mark/:id', async () => ({ message: 'A mark, as the module answers it' }));
        actionRoute(app, { config: { policy: ['labels', 'update'] }, tags: ['Marks'] }, recolour, async ({ auth, params }) => {
          const scope = { db: app.ctx.db, auth } as EntityScope;
          await labelsModule.repository.update!(scope, params.id, { colour: params.colour });
          return { message: 'Recoloured', data: (await labelsModule.repository.one!(scope, params.id))! };
        });
      },
    };
    const app = await buildApp(server.app.ctx, { modules: [marks], checkAnswers: true });
    try {
      const on = { ...server, app };
      const get = (path: string) => call(on, 'GET', path, { token: adminToken });
      const names = (answer: { json(): { data: { rows: Label[] } } }) => answer.json().data.rows.map((row) => row.name);
      const stored = (await server.db.select().from(labels).where(eq(labels.companyId, server.company.companyId))).map((row) => row.name);

      // The text is the query's `q`: missing or blank, every row; else the rows it finds.
      expect(names(await get('/marks/search/0/100'))).toHaveLength(stored.length);
      expect(names(await get('/marks/search/0/100?q=%20'))).toHaveLength(stored.length);
      const part = stored[0].slice(0, 3);
      expect(names(await get(`/marks/search/0/100?q=${encodeURIComponent(part)}`))).toEqual(
        expect.arrayContaining(stored.filter((name) => name.includes(part))),
      );
      // `one` is the module's own: the standard read is not registered beside it.
      const [first] = (await get('/marks/0/1')).json().data.rows as Label[];
      expect((await get(`/mark/${first.id}`)).json()).toEqual({ message: 'A mark, as the module answers it' });

      // The action: its placeholder checked by its own rule, its answer by its data schema.
      const wrong = await call(on, 'PUT', `/marks/${first.id}/colour/pink`, { token: adminToken });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('colour: must be red, blue or green');
      const done = await call(on, 'PUT', `/marks/${first.id}/colour/green`, { token: adminToken });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ message: 'Recoloured', data: { id: first.id, colour: 'green' } });

      const document = app.swagger() as { paths: Record<string, Record<string, { summary?: string; 'x-api-keys'?: boolean }>> };
      expect(document.paths['/api/v1/marks/{id}/colour/{colour}'].put.summary).toBe('Give a mark another colour');
      // The standard calls are kept from API keys; the module's own routes say for themselves.
      expect(document.paths['/api/v1/marks/{offset}/{limit}'].get['x-api-keys']).toBe(false);
      expect(document.paths['/api/v1/marks/{id}/colour/{colour}'].put['x-api-keys']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
