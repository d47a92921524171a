import { and, asc, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { choice } from '../../common/contract/answers';
import { defineAction, defineContract } from '../../common/contract/define';
import { buildApp } from '../../server/app';
import { selectRows } from '../../server/db/client';
import { systemAudits } from '../../server/db/schema';
import { conflict } from '../../server/http/errors';
import { inlined, listPage } from '../../server/http/lists';
import { actionRoute } from '../../server/platform/action-route';
import type { EntityModule, EntityScope, PageRequest } from '../../server/platform/entity-routes';
import { labelRow, labelsContract, type Label } from '../sample/labels-contract';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';
import { collectRouteTable } from './route-table';

/**
 * A sample entity declared only here — its contract, its table (the SQL a migration would hold)
 * and its repository — served by the server's shared entity routes (server/platform/entity-routes.ts).
 * From those alone it must get its routes at the contract's paths, guarded by its policy, its
 * OpenAPI operations with summaries and answer schemas, validation, audit entries, row-level
 * security, and the tenant walls every entity has.
 */

const labels = pgTable('labels', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  ownerId: uuid('owner_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a migration adding labels holds: the table only; its row-level security comes from the migrator. */
const LABELS_SQL = `
  create table labels (
    id uuid primary key default gen_random_uuid(),
    company_id uuid not null references companies(id),
    name text not null,
    colour text not null,
    is_active boolean not null default true,
    owner_id uuid,
    created_at timestamptz not null default now(),
    unique (company_id, name)
  );`;

const columns = {
  id: labels.id,
  name: labels.name,
  colour: labels.colour,
  isActive: labels.isActive,
  ownerId: labels.ownerId,
  createdAt: labels.createdAt,
};
const sortColumns = { name: labels.name, colour: labels.colour, createdAt: labels.createdAt } as const;

function page(scope: EntityScope, where: SQL | undefined, request: PageRequest) {
  const own = and(eq(labels.companyId, scope.auth.companyId), where);
  const column = sortColumns[request.sort.field as keyof typeof sortColumns] ?? labels.createdAt;
  const order = request.sort.order === 'ASC' ? asc(column) : desc(column);
  return listPage(
    scope.db,
    {
      page: (offset, limit) =>
        scope.db.select(columns).from(labels).where(own).orderBy(order, asc(labels.id)).offset(inlined(offset)).limit(inlined(limit)),
      countFrom: labels,
      where: own,
    },
    request.offset,
    request.limit,
  );
}

async function nameTaken(scope: EntityScope, name: string, except?: string): Promise<boolean> {
  const rows = await scope.db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.companyId, scope.auth.companyId), eq(labels.name, name)));
  return rows.some((row) => row.id !== except);
}

const LABEL_NAME_TAKEN = 'A label with this name already exists';

/** The only hand-written part: how labels are read and kept, and the one rule (names are unique). */
const labelsModule: EntityModule<Label> = {
  contract: labelsContract,
  repository: {
    list: (scope, request) => page(scope, undefined, request) as never,
    filter: (scope, body, request) => {
      const colours = body.colour as string[] | undefined;
      const search = body.search as string | undefined;
      const where = and(
        colours ? sql`${labels.colour} in ${colours}` : undefined,
        search ? ilike(labels.name, `%${search.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
      );
      return page(scope, where, request) as never;
    },
    filterProps: async () => ({ colour: ['red', 'blue', 'green'].map((colour) => ({ id: colour, name: colour })) }),
    one: async (scope, id) => {
      const [row] = await scope.db
        .select(columns)
        .from(labels)
        .where(and(eq(labels.companyId, scope.auth.companyId), eq(labels.id, id)));
      return (row as unknown as Label) ?? null;
    },
    create: async (scope, body) => {
      if (await nameTaken(scope, String(body.name))) throw conflict(LABEL_NAME_TAKEN);
      const [row] = await scope.db
        .insert(labels)
        .values({ companyId: scope.auth.companyId, name: String(body.name), colour: String(body.colour), ownerId: scope.auth.userId })
        .returning({ id: labels.id });
      return row.id;
    },
    update: async (scope, id, body) => {
      if (body.name !== undefined && (await nameTaken(scope, String(body.name), id))) throw conflict(LABEL_NAME_TAKEN);
      await scope.db
        .update(labels)
        .set(body)
        .where(and(eq(labels.companyId, scope.auth.companyId), eq(labels.id, id)));
    },
    setActive: async (scope, id, active) => {
      await scope.db
        .update(labels)
        .set({ isActive: active })
        .where(and(eq(labels.companyId, scope.auth.companyId), eq(labels.id, id)));
    },
    remove: async (scope, id) => {
      await scope.db.delete(labels).where(and(eq(labels.companyId, scope.auth.companyId), eq(labels.id, id)));
    },
    related: {
      owner: (scope, ownerId, request) => page(scope, eq(labels.ownerId, ownerId), request) as never,
    },
  },
};

let server: TestServer;
let adminToken: string;
let adminId: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;

beforeAll(async () => {
  server = await createTestServer({}, { modules: [labelsModule], moduleSql: LABELS_SQL });
  const admin = await signInAdmin(server);
  adminToken = admin.accessToken!;
  adminId = String(admin.id);
  other = await createOtherCompany(server);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const as = (token: string) => ({
  get: (path: string) => call(server, 'GET', path, { token }),
  send: (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => call(server, method, path, { token, body }),
});

async function companyLabels(companyId: string) {
  return server.db
    .select()
    .from(labels)
    .where(eq(labels.companyId, companyId))
    .orderBy(asc(labels.name))
    .then((rows) => JSON.stringify(rows));
}

describe('an entity declared by its contract and repository alone', () => {
  it('gets exactly the routes its contract names, at its paths, guarded by its policy', async () => {
    const table = await collectRouteTable(server.app, [labelsModule]);
    const mine = table
      .filter((route) => route.url.includes('label'))
      .map((route) => `${route.method} ${route.url} ${(route.config.policy as readonly string[]).join('/')}`)
      .sort();
    expect(mine).toEqual(
      [
        'GET /labels/:offset/:limit labels/read',
        'POST /labels/filter/:offset/:limit/:order/:field labels/read',
        'GET /labels/filter/props labels/read',
        'GET /label/:id labels/read',
        'POST /label labels/create',
        'PUT /label/:id labels/update',
        'DELETE /label/:id labels/delete',
        'PUT /label/activate/:id labels/update',
        'PUT /label/deactivate/:id labels/update',
        'GET /user/:id/labels labels/read',
      ].sort(),
    );
  });

  it('is described in the OpenAPI document: a summary, a tag and the answer schema of every operation', async () => {
    const document = server.app.swagger() as {
      paths: Record<string, Record<string, { summary?: string; tags?: string[]; responses?: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.includes('label'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    expect(operations).toHaveLength(10);
    for (const { path, method, operation } of operations) {
      expect(operation.summary, `${method} ${path}`).toMatch(/label/i);
      expect(operation.tags).toEqual(['Labels']);
      const answer = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
      expect(answer, `${method} ${path}`).toBeDefined();
      expect(JSON.stringify(answer![1])).toContain('"message"');
    }
    const one = document.paths['/api/v1/label/{id}'].get.responses!['200'];
    expect(JSON.stringify(one)).toContain('"colour"');
  });

  it('creates, lists, filters, sorts, reads, changes, activates and deletes, auditing each change', async () => {
    const admin = as(adminToken);
    const created = await admin.send('POST', '/label', { name: 'Urgent', colour: 'red' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe('Label created');
    const urgent = labelRow.parse(created.json().data);
    expect(urgent).toMatchObject({ name: 'Urgent', colour: 'red', isActive: true, ownerId: adminId });
    await admin.send('POST', '/label', { name: 'Later', colour: 'blue' });
    await admin.send('POST', '/label', { name: 'Archive', colour: 'green' });

    const list = await admin.get('/labels/0/2');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ count: 3, countExact: true });
    expect(list.json().data.rows).toHaveLength(2);
    for (const row of list.json().data.rows) labelRow.parse(row);

    const filtered = await admin.send('POST', '/labels/filter/0/10/ASC/name', { colour: ['red', 'green'] });
    expect(filtered.json().data.rows.map((row: Label) => row.name)).toEqual(['Archive', 'Urgent']);
    const searched = await admin.send('POST', '/labels/filter/0/10/DESC/name', { search: 'a' });
    expect(searched.json().data.rows.map((row: Label) => row.name)).toEqual(['Later', 'Archive']);
    expect((await admin.get('/labels/filter/props')).json().data.colour).toHaveLength(3);

    expect((await admin.get(`/label/${urgent.id}`)).json().data).toEqual(urgent);
    const renamed = await admin.send('PUT', `/label/${urgent.id}`, { name: 'Now' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Label saved', data: { name: 'Now', colour: 'red' } });
    const same = await admin.send('PUT', `/label/${urgent.id}`, { name: 'Now', colour: 'red' });
    expect(same.json()).toMatchObject({ message: 'Nothing to change', data: { name: 'Now' } });
    const off = await admin.send('PUT', `/label/deactivate/${urgent.id}`);
    expect(off.json()).toMatchObject({ message: 'Label deactivated', data: { isActive: false } });
    expect((await admin.send('PUT', `/label/activate/${urgent.id}`)).json().data.isActive).toBe(true);

    const mine = await admin.get(`/user/${adminId}/labels?offset=0&limit=10`);
    expect(mine.json().data.count).toBe(3);

    const deleted = await admin.send('DELETE', `/label/${urgent.id}`);
    expect(deleted.json()).toEqual({ message: 'Label deleted' });
    expect((await admin.get(`/label/${urgent.id}`)).statusCode).toBe(404);

    const audits = await server.db
      .select({ operation: systemAudits.operation, changes: systemAudits.changes })
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'label'), eq(systemAudits.recordId, urgent.id)))
      .orderBy(asc(systemAudits.createdAt));
    expect(audits.map((audit) => audit.operation)).toEqual(['create', 'update', 'deactivate', 'activate', 'delete']);
    expect(audits[1].changes).toEqual({ before: { name: 'Urgent' }, after: { name: 'Now' } });
  });

  it('refuses bad input naming the field, and a name taken, leaving the rows as they were', async () => {
    const admin = as(adminToken);
    const before = await companyLabels(server.company.companyId);
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/label', { name: '', colour: 'red' }, 400, /name/],
      ['POST', '/label', { name: 'Plain', colour: 'pink' }, 400, /colour: must be red, blue or green/],
      ['POST', '/label', { name: 'Later', colour: 'red' }, 409, /already exists/],
      ['POST', '/labels/filter/0/10/ASC/ownerId', {}, 400, /field/],
      ['PUT', '/label/not-an-id', { name: 'X' }, 400, /id/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const answer = await admin.send(method as 'POST' | 'PUT', path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBe(status);
      expect(answer.json().message).toMatch(message);
    }
    expect(await companyLabels(server.company.companyId)).toBe(before);
  });

  it("keeps each company to its own labels: another company's are missing, and its own list is empty", async () => {
    const admin = as(adminToken);
    const [label] = (await admin.get('/labels/0/10')).json().data.rows as Label[];
    const before = await companyLabels(server.company.companyId);
    const intruder = as(other.adminToken);
    expect((await intruder.get('/labels/0/10')).json().data).toMatchObject({ rows: [], count: 0 });
    expect((await intruder.get(`/label/${label.id}`)).statusCode).toBe(404);
    expect((await intruder.send('PUT', `/label/${label.id}`, { name: 'Taken over' })).statusCode).toBe(404);
    expect((await intruder.send('DELETE', `/label/${label.id}`)).statusCode).toBe(404);
    expect((await intruder.send('PUT', `/label/deactivate/${label.id}`)).statusCode).toBe(404);
    expect(await companyLabels(server.company.companyId)).toBe(before);
  });

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

  it('gets the row-level security every tenant table has, from the migrator rather than its own SQL', async () => {
    const [state] = await selectRows<{ enabled: boolean; policies: number }>(
      server.db,
      sql`select c.relrowsecurity as enabled, (select count(*) from pg_policies p where p.tablename = 'labels' and p.policyname = 'company_rows' and p.schemaname = current_schema())::int as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'labels' and n.nspname = current_schema()`,
    );
    expect(state).toEqual({ enabled: true, policies: 1 });
  });
});
