import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { CONNECTION_TYPE_CATALOGUE, CONNECTION_TYPES, connectionTypeOf, type ConnectionType } from '../../common/connections';
import { createConnectionBody, pairBody, testConnectionBody, updateConnectionBody } from '../../common/schemas/connections';
import { activateRoleBody as activationBody } from '../../common/schemas/roles';
import { answer, listAnswer, messageAnswer } from '../../common/contract/answers';
import {
  codeRepositoryIntegration,
  connectionCardsAnswer,
  connectionEndpoint,
  connectionFilterPropsAnswer,
  connectionRow,
  connectionTestResult,
  slackIntegration,
} from '../../common/contract/connections';
import { sourceDestinationRow } from '../../common/contract/source-destinations';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import {
  CONNECTION_NAME_TAKEN,
  createConnection,
  keptSecrets,
  recordConnectionTest,
  roleProblems,
  runConnectionTest,
  secretChanges,
  settingsOrThrow,
} from '../connections/lifecycle';
import {
  companyConnections,
  companyPairs,
  connectionConfig,
  connectionsByIds,
  findConnection,
  findPair,
  openSecrets,
  pairsOfConnection,
  sealSecrets,
  selectConnections,
  selectPairs,
  toConnectionRow,
  type ConnectionRow,
} from '../connections/records';
import { within as withinTime } from '../connectors/registry';
import { ConnectorError } from '../connectors/types';
import { checkConnectionReach } from '../connections/reach-check';
import { connections, sourceDestinations } from '../db/schema';
import { usersWho } from '../audits/people';
import { liveWorkspaceId, workspaceChoices } from '../workspaces/records';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict, notFound } from '../http/errors';
import {
  anyOf,
  booleanFilter,
  booleanIs,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  inlined,
  listPage,
  pageParams,
  searchFilter,
  searching,
  startDateFilter,
  textChoiceFilter,
  within,
  type Card,
} from '../http/lists';
import { uuidParam } from '../http/schemas';

const TAGS = ['Connections'];
const idParams = z.object({ id: uuidParam });
const read = { policy: ['connections', 'read'] as const };
const update = { policy: ['connections', 'update'] as const };

/** How long endpoint discovery may take. */
const ENDPOINTS_TIMEOUT_MS = 30_000;

const CONNECTION_STATUSES = ['active', 'inactive', 'failing', 'untested'] as const;

/**
 * The answers that hold connections, pairs and test results, as the document and the test
 * servers' check read them. The rows hold Dates (written as the ISO strings the schemas name) and
 * their types as plain strings, so the handlers' values are not typed by them.
 */
const connectionList: ZodType<unknown> = listAnswer(connectionRow);
const connectionAnswer: ZodType<unknown> = answer(connectionRow);
const connectionsAnswer: ZodType<unknown> = answer(z.array(connectionRow));
const pairAnswer: ZodType<unknown> = answer(sourceDestinationRow);
const pairsAnswer: ZodType<unknown> = answer(z.array(sourceDestinationRow));
const testAnswer: ZodType<unknown> = answer(connectionTestResult);
const slackAnswer: ZodType<unknown> = answer(slackIntegration);
const codeRepositoryAnswer: ZodType<unknown> = answer(codeRepositoryIntegration);

const connectionFilter = filterBody({
  source: booleanFilter,
  destination: booleanFilter,
  user: idChoiceFilter,
  workspace: idChoiceFilter,
  startDate: startDateFilter,
  endDate: endDateFilter,
  search: searchFilter,
  type: textChoiceFilter.refine((values) => values.every((v) => (CONNECTION_TYPES as readonly string[]).includes(v)), {
    message: `must be one of ${CONNECTION_TYPES.join(', ')}`,
  }),
  status: textChoiceFilter.refine((values) => values.every((v) => (CONNECTION_STATUSES as readonly string[]).includes(v)), {
    message: `must be one of ${CONNECTION_STATUSES.join(', ')}`,
  }),
});
type ConnectionFilter = z.output<typeof connectionFilter>;

const STATUS_CONDITIONS: Record<(typeof CONNECTION_STATUSES)[number], SQL> = {
  active: sql`${connections.isActive}`,
  inactive: sql`not ${connections.isActive}`,
  failing: sql`${connections.lastTestOk} = false`,
  untested: sql`${connections.lastTestedAt} is null`,
};

/** Name, description, type and the plain settings (host, bucket, path…) hold the text. */
const searchedText = (text: string) =>
  searching([connections.name, connections.description, connections.type, sql`${connections.settings}::text`], text);

function filterConditions(filter: ConnectionFilter): SQL | undefined {
  const statuses = (filter.status ?? []) as Array<(typeof CONNECTION_STATUSES)[number]>;
  return and(
    booleanIs(connections.isSource, filter.source ?? []),
    booleanIs(connections.isDestination, filter.destination ?? []),
    anyOf(connections.createdBy, filter.user ?? []),
    anyOf(connections.workspaceId, filter.workspace ?? []),
    anyOf(connections.type, filter.type ?? []),
    statuses.length > 0 ? or(...statuses.map((status) => STATUS_CONDITIONS[status])) : undefined,
    within(connections.createdAt, filter.startDate ?? null, filter.endDate ?? null),
    searchedText(filter.search ?? ''),
  );
}

/**
 * Connections to sources, destinations and integrations, and the source/destination pairs that
 * join them (docs/api/connections.md). Secret settings are sealed with the instance secret and
 * never answered.
 */
export async function connectionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors } = api.ctx;

  const listOf = async (companyId: string, where: SQL | undefined, offset: number, limit: number) => {
    const condition = companyConnections(companyId, where);
    const answer = await listPage(
      db,
      {
        page: (o, l) =>
          selectConnections(db)
            .where(condition)
            .orderBy(desc(connections.createdAt), desc(connections.id))
            .offset(inlined(o))
            .limit(inlined(l)),
        countFrom: connections,
        where: condition,
      },
      offset,
      limit,
    );
    return { ...answer, rows: answer.rows.map((row) => toConnectionRow(secrets, row)) };
  };

  // ---- Lists ----------------------------------------------------------------------------------------

  api.get(
    '/connections/:offset/:limit',
    { config: read, schema: { summary: 'List the connections', tags: TAGS, params: pageParams, response: { 200: connectionList } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Connections', data: await listOf(companyId, undefined, offset, limit) };
    },
  );

  api.post(
    '/connections/filter/:offset/:limit',
    {
      config: read,
      schema: {
        summary: 'Filter the connections',
        tags: TAGS,
        params: pageParams,
        body: connectionFilter,
        response: { 200: connectionList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Connections', data: await listOf(companyId, filterConditions(request.body), offset, limit) };
    },
  );

  api.get(
    '/connections/search/:offset/:limit',
    {
      config: read,
      schema: {
        summary: 'Search the connections',
        tags: TAGS,
        params: pageParams,
        querystring: z.object({ searchText: searchFilter }),
        response: { 200: connectionList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Connections', data: await listOf(companyId, searchedText(request.query.searchText), offset, limit) };
    },
  );

  api.get(
    '/connections/filters',
    { config: read, schema: { summary: 'Choices of the connection filters', tags: TAGS, response: { 200: connectionFilterPropsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [user, workspace, typesUsed] = await Promise.all([
        usersWho(
          db,
          companyId,
          (userId) =>
            sql`exists (select 1 from ${connections} where ${connections.companyId} = ${companyId} and ${connections.createdBy} = ${userId})`,
        ),
        workspaceChoices(db, companyId),
        db.selectDistinct({ type: connections.type }).from(connections).where(eq(connections.companyId, companyId)),
      ]);
      const used = new Set(typesUsed.map((t) => t.type));
      return {
        message: 'Connection filters',
        data: {
          source: [
            { id: 'true', name: 'Sources' },
            { id: 'false', name: 'Not sources' },
          ],
          destination: [
            { id: 'true', name: 'Destinations' },
            { id: 'false', name: 'Not destinations' },
          ],
          user,
          workspace,
          type: CONNECTION_TYPE_CATALOGUE.filter((t) => used.has(t.type)).map((t) => ({ id: t.type, name: t.label })),
          status: [
            { id: 'active', name: 'Active' },
            { id: 'inactive', name: 'Inactive' },
            { id: 'failing', name: 'Last test failed' },
            { id: 'untested', name: 'Never tested' },
          ],
        },
      };
    },
  );

  api.get(
    '/connections/topCards',
    { config: read, schema: { summary: 'Counts of connections', tags: TAGS, response: { 200: connectionCardsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const n = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
      const [[counts], [pairs]] = await Promise.all([
        db
          .select({
            total: sql<number>`count(*)`.mapWith(Number),
            active: n(sql`${connections.isActive}`),
            sources: n(sql`${connections.isSource}`),
            destinations: n(sql`${connections.isDestination}`),
            failing: n(sql`${connections.lastTestOk} = false`),
          })
          .from(connections)
          .where(eq(connections.companyId, companyId)),
        db
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(sourceDestinations)
          .where(eq(sourceDestinations.companyId, companyId)),
      ]);
      const cards: Card[] = [
        { key: 'total', label: 'Connections', value: counts.total },
        { key: 'active', label: 'Active', value: counts.active },
        { key: 'sources', label: 'Sources', value: counts.sources },
        { key: 'destinations', label: 'Destinations', value: counts.destinations },
        { key: 'failing', label: 'Last test failed', value: counts.failing },
        { key: 'pairs', label: 'Source/destination pairs', value: pairs.total, link: '/source-destinations' },
      ];
      return { message: 'Connection cards', data: { cards } };
    },
  );

  // ---- One connection -----------------------------------------------------------------------------

  api.get(
    '/connection/:id',
    {
      config: read,
      schema: { summary: 'One connection (secrets never answered)', tags: TAGS, params: idParams, response: { 200: connectionAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Connection', data: await findConnection(db, secrets, companyId, request.params.id) };
    },
  );

  api.get(
    '/connection/workspace/:id',
    {
      config: read,
      schema: {
        summary: 'The live connections of a workspace',
        tags: TAGS,
        params: idParams,
        response: { 200: connectionsAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const rows = await selectConnections(db)
        .where(companyConnections(companyId, and(eq(connections.workspaceId, request.params.id), eq(connections.isActive, true))))
        .orderBy(asc(sql`lower(${connections.name})`));
      return { message: 'Connections of the workspace', data: rows.map((row) => toConnectionRow(secrets, row)) };
    },
  );

  api.post(
    '/connections',
    {
      config: { policy: ['connections', 'create'] },
      schema: { summary: 'Create a connection', tags: TAGS, body: createConnectionBody, response: { 201: connectionAnswer } },
    },
    async (request, reply) => {
      const row = await createConnection({ db, secrets, reach: connectors.context }, request, requireAuth(request), request.body);
      return reply.code(201).send({ message: `Connection "${row.name}" created`, data: row });
    },
  );

  api.put(
    '/connection/:id',
    {
      config: update,
      schema: {
        summary: 'Edit a connection (blank secrets are kept)',
        tags: TAGS,
        params: idParams,
        body: updateConnectionBody,
        response: { 200: connectionAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const body = request.body;
      const [stored] = await db
        .select()
        .from(connections)
        .where(companyConnections(auth.companyId, eq(connections.id, id)));
      if (!stored) throw notFound('Connection');
      const declaration = connectionTypeOf(stored.type)!;
      const isSource = body.isSource ?? stored.isSource;
      const isDestination = body.isDestination ?? stored.isDestination;
      const roleProblem = roleProblems(declaration, isSource, isDestination);
      if (roleProblem) throw badRequest(roleProblem);
      const storedSecrets = openSecrets(secrets, stored.secretsEnc);
      const next = body.settings
        ? settingsOrThrow(declaration, body.settings, new Set(Object.keys(storedSecrets)))
        : { settings: stored.settings, secrets: {} as Record<string, string> };
      const mergedSecrets = body.settings ? keptSecrets(declaration, next.settings, storedSecrets, next.secrets) : storedSecrets;
      if (body.settings)
        await checkConnectionReach(connectors.context, {
          companyId: auth.companyId,
          type: stored.type as ConnectionType,
          settings: next.settings,
          secrets: mergedSecrets,
        });
      const workspaceId = body.workspaceId === undefined ? stored.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);

      const before = {
        name: stored.name,
        description: stored.description,
        workspaceId: stored.workspaceId,
        isSource: stored.isSource,
        isDestination: stored.isDestination,
        settings: stored.settings,
      };
      const after = {
        name: body.name ?? stored.name,
        description: body.description ?? stored.description,
        workspaceId,
        isSource,
        isDestination,
        settings: next.settings,
      };
      const was: Record<string, unknown> = {};
      const now: Record<string, unknown> = {};
      for (const key of Object.keys(after) as Array<keyof typeof after>) {
        if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
          was[key] = before[key];
          now[key] = after[key];
        }
      }
      const secretsChanged = secretChanges(storedSecrets, mergedSecrets);
      if (Object.keys(now).length === 0 && Object.keys(secretsChanged).length === 0) {
        return { message: 'Nothing to change', data: await findConnection(db, secrets, auth.companyId, id) };
      }
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(connections)
            .set({ ...after, secretsEnc: sealSecrets(secrets, mergedSecrets), updatedAt: new Date() })
            .where(companyConnections(auth.companyId, eq(connections.id, id)));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'connection',
            operation: 'update',
            recordId: id,
            changes: { before: was, after: { ...now, ...secretsChanged } },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(CONNECTION_NAME_TAKEN);
        throw err;
      }
      return { message: `Connection "${after.name}" saved`, data: await findConnection(db, secrets, auth.companyId, id) };
    },
  );

  api.post(
    '/connection/:id/configure',
    {
      config: update,
      schema: {
        summary: 'Test a connection for real (stored settings, or given ones without saving)',
        tags: TAGS,
        params: idParams,
        body: testConnectionBody,
        response: { 200: testAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const stored = await connectionConfig(db, secrets, auth.companyId, id);
      const declaration = connectionTypeOf(stored.type)!;
      const given = request.body.settings;
      let config = stored as Parameters<typeof connectors.open>[0];
      if (given) {
        // The form's unsaved settings, laid over the stored ones: blank secrets are the stored ones.
        const parsed = settingsOrThrow(declaration, given, new Set(Object.keys(stored.secrets)));
        config = {
          companyId: auth.companyId,
          type: stored.type,
          settings: parsed.settings,
          secrets: { ...stored.secrets, ...parsed.secrets },
        };
      }
      try {
        await checkConnectionReach(connectors.context, config);
      } catch (error) {
        // Refused before anything is dialled: the stored connection's test is kept as failed, with the reason.
        if (!given && error instanceof ConnectorError) {
          await recordConnectionTest(db, request, auth.companyId, id, {
            ok: false,
            latencyMs: null,
            detail: '',
            message: error.message,
            testedAt: new Date(),
          });
        }
        throw error;
      }
      const outcome = await runConnectionTest(connectors, config);
      if (!given) await recordConnectionTest(db, request, auth.companyId, id, outcome);
      return { message: `${stored.name}: ${outcome.message}`, data: outcome };
    },
  );

  api.get(
    '/connection/:id/endpoints',
    {
      config: read,
      schema: {
        summary: 'What the connection reaches, discovered now',
        tags: TAGS,
        params: idParams,
        response: { 200: answer(z.array(connectionEndpoint)) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const config = await connectionConfig(db, secrets, companyId, request.params.id);
      const endpoints = await connectors.use(config, (connector) =>
        withinTime(ENDPOINTS_TIMEOUT_MS, 'Listing what the connection reaches', connector.endpoints()),
      );
      return { message: `${endpoints.length} endpoints`, data: endpoints };
    },
  );

  api.put(
    '/connections/activate/:id',
    {
      config: update,
      schema: {
        summary: 'Activate or deactivate a connection',
        tags: TAGS,
        params: idParams,
        body: activationBody,
        response: { 200: connectionAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const { isActive } = request.body;
      const current = await findConnection(db, secrets, auth.companyId, id);
      if (current.isActive !== isActive) {
        await db.transaction(async (tx) => {
          await tx
            .update(connections)
            .set({ isActive, updatedAt: new Date() })
            .where(companyConnections(auth.companyId, eq(connections.id, id)));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'connection',
            operation: isActive ? 'activate' : 'deactivate',
            recordId: id,
            changes: { before: { isActive: !isActive }, after: { isActive } },
          });
        });
      }
      return {
        message: `Connection "${current.name}" is ${isActive ? 'active' : 'deactivated'}`,
        data: await findConnection(db, secrets, auth.companyId, id),
      };
    },
  );

  // ---- Integrations ---------------------------------------------------------------------------------

  const integrationOf = async (companyId: string, types: string[]) => {
    const rows = await selectConnections(db)
      .where(companyConnections(companyId, inArray(connections.type, types)))
      .orderBy(asc(sql`lower(${connections.name})`));
    const list = rows.map((row) => toConnectionRow(secrets, row));
    return { configured: list.length > 0, active: list.some((c) => c.isActive), list };
  };

  api.get(
    '/connection/slack/integration',
    { config: read, schema: { summary: 'The Slack integration', tags: TAGS, response: { 200: slackAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { configured, active, list } = await integrationOf(companyId, ['slack']);
      const shown = list.map((c: ConnectionRow) => ({
        id: c.id,
        name: c.name,
        mode: c.settings.mode ?? 'webhook',
        channel: c.settings.channel ?? null,
        isActive: c.isActive,
        lastTestOk: c.lastTestOk,
        lastTestedAt: c.lastTestedAt,
      }));
      return { message: 'Slack integration', data: { configured, active, connections: shown } };
    },
  );

  api.get(
    '/connection/bitbucket/integration',
    {
      config: read,
      schema: { summary: 'The code-repository integration', tags: TAGS, response: { 200: codeRepositoryAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { configured, active, list } = await integrationOf(companyId, ['bitbucket', 'git']);
      const shown = list.map((c: ConnectionRow) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        workspace: c.settings.workspace ?? null,
        url: c.settings.url ?? null,
        isActive: c.isActive,
        lastTestOk: c.lastTestOk,
        lastTestedAt: c.lastTestedAt,
      }));
      return { message: 'Code-repository integration', data: { configured, active, connections: shown } };
    },
  );

  // ---- Source/destination pairs ---------------------------------------------------------------------

  const pairsByName = (where: SQL) =>
    selectPairs(db)
      .where(where)
      .orderBy(asc(sql`lower(${sourceDestinations.name})`), asc(sourceDestinations.id));

  api.get(
    '/active/source/destination',
    { config: read, schema: { summary: 'The active source/destination pairs', tags: TAGS, response: { 200: pairsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const rows = await pairsByName(companyPairs(companyId, eq(sourceDestinations.isActive, true)));
      return { message: 'Active source/destination pairs', data: rows.filter((pair) => pair.sourceActive && pair.destinationActive) };
    },
  );

  api.get(
    '/connection/:id/source/destination',
    { config: read, schema: { summary: 'The pairs a connection is in', tags: TAGS, params: idParams, response: { 200: pairsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      await findConnection(db, secrets, companyId, request.params.id);
      return { message: 'Source/destination pairs', data: await pairsByName(pairsOfConnection(companyId, request.params.id)) };
    },
  );

  api.put(
    '/source/destination/:id',
    {
      config: update,
      schema: {
        summary: 'Create (at this id) or change a source/destination pair',
        tags: TAGS,
        params: idParams,
        body: pairBody,
        response: { 200: pairAnswer, 201: pairAnswer },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const body = request.body;
      if (body.sourceId === body.destinationId) throw badRequest('destinationId: must differ from the source');
      const found = await connectionsByIds(db, auth.companyId, [body.sourceId, body.destinationId]);
      const source = found.get(body.sourceId);
      const destination = found.get(body.destinationId);
      if (!source) throw badRequest('sourceId: no such connection');
      if (!destination) throw badRequest('destinationId: no such connection');
      if (!source.isSource) throw badRequest(`sourceId: "${source.name}" is not a source`);
      if (!destination.isDestination) throw badRequest(`destinationId: "${destination.name}" is not a destination`);
      const name = body.name || `${source.name} → ${destination.name}`;
      const existing = await findPair(db, auth.companyId, id);
      try {
        await db.transaction(async (tx) => {
          if (existing) {
            const after = {
              name,
              sourceId: body.sourceId,
              destinationId: body.destinationId,
              isActive: body.isActive ?? existing.isActive,
            };
            await tx
              .update(sourceDestinations)
              .set({ ...after, updatedAt: new Date() })
              .where(companyPairs(auth.companyId, eq(sourceDestinations.id, id)));
            await recordAudit(tx, request, {
              companyId: auth.companyId,
              model: 'source_destination',
              operation: 'update',
              recordId: id,
              changes: {
                before: {
                  name: existing.name,
                  sourceId: existing.sourceId,
                  destinationId: existing.destinationId,
                  isActive: existing.isActive,
                },
                after,
              },
            });
          } else {
            const values = { name, sourceId: body.sourceId, destinationId: body.destinationId, isActive: body.isActive ?? true };
            await tx.insert(sourceDestinations).values({ id, companyId: auth.companyId, ...values, createdBy: auth.userId });
            await recordAudit(tx, request, {
              companyId: auth.companyId,
              model: 'source_destination',
              operation: 'create',
              recordId: id,
              changes: { after: values },
            });
          }
        });
      } catch (err) {
        // An id another company uses (which this company cannot see) is not this company's to take.
        if (isUniqueViolation(err, 'source_destinations_pkey')) throw notFound('Source/destination pair');
        if (isUniqueViolation(err)) throw conflict(`destinationId: "${source.name}" is already paired with "${destination.name}"`);
        throw err;
      }
      const pair = await findPair(db, auth.companyId, id);
      return reply.code(existing ? 200 : 201).send({ message: existing ? `Pair "${name}" saved` : `Pair "${name}" created`, data: pair });
    },
  );

  api.delete(
    '/source/destination/:id',
    {
      config: { policy: ['connections', 'delete'] },
      schema: { summary: 'Delete a source/destination pair', tags: TAGS, params: idParams, response: { 200: messageAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const pair = await findPair(db, auth.companyId, request.params.id);
      if (!pair) throw notFound('Source/destination pair');
      await db.transaction(async (tx) => {
        await tx.delete(sourceDestinations).where(companyPairs(auth.companyId, eq(sourceDestinations.id, pair.id)));
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'source_destination',
          operation: 'delete',
          recordId: pair.id,
          changes: { before: { name: pair.name, sourceId: pair.sourceId, destinationId: pair.destinationId } },
        });
      });
      return { message: `Pair "${pair.name}" deleted` };
    },
  );
}
