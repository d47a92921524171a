import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { CONNECTION_TYPE_CATALOGUE, CONNECTION_TYPES, connectionTypeOf, type ConnectionType } from '../../common/connections';
import { createConnectionBody, pairBody, testConnectionBody, updateConnectionBody } from '../../common/schemas/connections';
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
import { liveWorkspaceId } from '../workspaces/records';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict, notFound } from '../http/errors';
import {
  anyOf,
  booleanFilter,
  booleanIs,
  counted,
  filterBody,
  labelledChoices,
  orderedPage,
  searching,
  textChoiceFilter,
  type Card,
} from '../http/lists';
import { uuidParam } from '../http/schemas';
import { registerActivationRoute } from '../platform/activation-route';
import { answerRoute } from '../platform/answer-route';
import { audited, fieldChanges, unlessTaken } from '../platform/audited';
import { registerFindRoute, registerListRoutes, registerReadRoute, type PagePlace } from '../platform/list-routes';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../platform/owned-records';

const TAGS = ['Connections'];
const idParams = z.object({ id: uuidParam });
const read = { policy: ['connections', 'read'] as const };
const update = { policy: ['connections', 'update'] as const };
const reading = { config: read, tags: TAGS };
const updating = { config: update, tags: TAGS };

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
  ...ownedFilterFields,
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
    ownedConditions(connections, filter),
    anyOf(connections.type, filter.type ?? []),
    statuses.length > 0 ? or(...statuses.map((status) => STATUS_CONDITIONS[status])) : undefined,
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

  const listOf = async (companyId: string, where: SQL | undefined, { offset, limit }: PagePlace) => {
    const answer = await orderedPage(
      db,
      {
        select: () => selectConnections(db),
        where: companyConnections(companyId, where),
        order: [desc(connections.createdAt), desc(connections.id)],
        countFrom: connections,
      },
      offset,
      limit,
    );
    return { ...answer, rows: answer.rows.map((row) => toConnectionRow(secrets, row)) };
  };

  const filterChoices = async (companyId: string) => {
    const [owned, typesUsed] = await Promise.all([
      ownedChoices(db, companyId, connections),
      db.selectDistinct({ type: connections.type }).from(connections).where(eq(connections.companyId, companyId)),
    ]);
    const used = new Set(typesUsed.map((t) => t.type));
    return {
      source: labelledChoices({ true: 'Sources', false: 'Not sources' }),
      destination: labelledChoices({ true: 'Destinations', false: 'Not destinations' }),
      ...owned,
      type: CONNECTION_TYPE_CATALOGUE.filter((t) => used.has(t.type)).map((t) => ({ id: t.type, name: t.label })),
      status: labelledChoices({ active: 'Active', inactive: 'Inactive', failing: 'Last test failed', untested: 'Never tested' }),
    };
  };

  const cards = async (companyId: string): Promise<Card[]> => {
    const [[counts], [pairs]] = await Promise.all([
      db
        .select({
          total: counted(),
          active: counted(sql`${connections.isActive}`),
          sources: counted(sql`${connections.isSource}`),
          destinations: counted(sql`${connections.isDestination}`),
          failing: counted(sql`${connections.lastTestOk} = false`),
        })
        .from(connections)
        .where(eq(connections.companyId, companyId)),
      db.select({ total: counted() }).from(sourceDestinations).where(eq(sourceDestinations.companyId, companyId)),
    ]);
    return [
      { key: 'total', label: 'Connections', value: counts.total },
      { key: 'active', label: 'Active', value: counts.active },
      { key: 'sources', label: 'Sources', value: counts.sources },
      { key: 'destinations', label: 'Destinations', value: counts.destinations },
      { key: 'failing', label: 'Last test failed', value: counts.failing },
      { key: 'pairs', label: 'Source/destination pairs', value: pairs.total, link: '/source-destinations' },
    ];
  };

  // ---- Lists ----------------------------------------------------------------------------------------

  registerListRoutes(app, reading, {
    answer: connectionList,
    message: 'Connections',
    page: listOf,
    list: { path: '/connections/:offset/:limit', summary: 'List the connections' },
    filter: {
      path: '/connections/filter/:offset/:limit',
      summary: 'Filter the connections',
      body: connectionFilter,
      where: filterConditions,
    },
    search: { path: '/connections/search/:offset/:limit', summary: 'Search the connections', where: searchedText },
    props: {
      path: '/connections/filters',
      summary: 'Choices of the connection filters',
      answer: connectionFilterPropsAnswer,
      message: 'Connection filters',
      data: filterChoices,
    },
    cards: {
      path: '/connections/topCards',
      summary: 'Counts of connections',
      answer: connectionCardsAnswer,
      message: 'Connection cards',
      cards,
    },
  });

  // ---- One connection -----------------------------------------------------------------------------

  registerFindRoute(app, reading, {
    path: '/connection/:id',
    summary: 'One connection (secrets never answered)',
    answer: connectionAnswer,
    message: 'Connection',
    find: (companyId, id) => findConnection(db, secrets, companyId, id),
  });

  answerRoute(
    app,
    reading,
    {
      method: 'GET',
      path: '/connection/workspace/:id',
      summary: 'The live connections of a workspace',
      params: idParams,
      answer: connectionsAnswer,
    },
    async ({ auth, params }) => {
      const rows = await selectConnections(db)
        .where(companyConnections(auth.companyId, and(eq(connections.workspaceId, params.id), eq(connections.isActive, true))))
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
      const { before: was, after: now } = fieldChanges(before, after);
      const secretsChanged = secretChanges(storedSecrets, mergedSecrets);
      if (Object.keys(now).length === 0 && Object.keys(secretsChanged).length === 0) {
        return { message: 'Nothing to change', data: await findConnection(db, secrets, auth.companyId, id) };
      }
      await unlessTaken(CONNECTION_NAME_TAKEN, () =>
        audited(
          db,
          request,
          (tx) =>
            tx
              .update(connections)
              .set({ ...after, secretsEnc: sealSecrets(secrets, mergedSecrets), updatedAt: new Date() })
              .where(companyConnections(auth.companyId, eq(connections.id, id))),
          {
            companyId: auth.companyId,
            model: 'connection',
            operation: 'update',
            recordId: id,
            changes: { before: was, after: { ...now, ...secretsChanged } },
          },
        ),
      );
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

  registerActivationRoute(app, updating, {
    method: 'PUT',
    path: '/connections/activate/:id',
    summary: 'Activate or deactivate a connection',
    answer: connectionAnswer,
    noun: 'Connection',
    model: 'connection',
    find: (companyId, id) => findConnection(db, secrets, companyId, id),
    write: (tx, companyId, id, isActive) =>
      tx
        .update(connections)
        .set({ isActive, updatedAt: new Date() })
        .where(companyConnections(companyId, eq(connections.id, id))),
  });

  // ---- Integrations ---------------------------------------------------------------------------------

  /** An integration's connections of `types`, each shown with what `shown` adds of its settings. */
  const integration =
    (types: string[], shown: (settings: ConnectionRow['settings'], row: ConnectionRow) => Record<string, unknown>) =>
    async (companyId: string) => {
      const rows = await selectConnections(db)
        .where(companyConnections(companyId, inArray(connections.type, types)))
        .orderBy(asc(sql`lower(${connections.name})`));
      const list = rows.map((row) => toConnectionRow(secrets, row));
      return {
        configured: list.length > 0,
        active: list.some((c) => c.isActive),
        connections: list.map((c) => ({
          id: c.id,
          name: c.name,
          ...shown(c.settings, c),
          isActive: c.isActive,
          lastTestOk: c.lastTestOk,
          lastTestedAt: c.lastTestedAt,
        })),
      };
    };

  registerReadRoute(app, reading, {
    path: '/connection/slack/integration',
    summary: 'The Slack integration',
    answer: slackAnswer,
    message: 'Slack integration',
    data: integration(['slack'], (settings) => ({ mode: settings.mode ?? 'webhook', channel: settings.channel ?? null })),
  });

  registerReadRoute(app, reading, {
    path: '/connection/bitbucket/integration',
    summary: 'The code-repository integration',
    answer: codeRepositoryAnswer,
    message: 'Code-repository integration',
    data: integration(['bitbucket', 'git'], (settings, row) => ({
      type: row.type,
      workspace: settings.workspace ?? null,
      url: settings.url ?? null,
    })),
  });

  // ---- Source/destination pairs ---------------------------------------------------------------------

  const pairsByName = (where: SQL) =>
    selectPairs(db)
      .where(where)
      .orderBy(asc(sql`lower(${sourceDestinations.name})`), asc(sourceDestinations.id));

  registerReadRoute(app, reading, {
    path: '/active/source/destination',
    summary: 'The active source/destination pairs',
    answer: pairsAnswer,
    message: 'Active source/destination pairs',
    data: async (companyId) => {
      const rows = await pairsByName(companyPairs(companyId, eq(sourceDestinations.isActive, true)));
      return rows.filter((pair) => pair.sourceActive && pair.destinationActive);
    },
  });

  answerRoute(
    app,
    reading,
    {
      method: 'GET',
      path: '/connection/:id/source/destination',
      summary: 'The pairs a connection is in',
      params: idParams,
      answer: pairsAnswer,
    },
    async ({ auth, params }) => {
      await findConnection(db, secrets, auth.companyId, params.id);
      return { message: 'Source/destination pairs', data: await pairsByName(pairsOfConnection(auth.companyId, params.id)) };
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
      const values = {
        name,
        sourceId: body.sourceId,
        destinationId: body.destinationId,
        isActive: body.isActive ?? existing?.isActive ?? true,
      };
      const entry = { companyId: auth.companyId, model: 'source_destination', recordId: id };
      try {
        if (existing) {
          const { sourceId, destinationId, isActive } = existing;
          await audited(
            db,
            request,
            (tx) =>
              tx
                .update(sourceDestinations)
                .set({ ...values, updatedAt: new Date() })
                .where(companyPairs(auth.companyId, eq(sourceDestinations.id, id))),
            {
              ...entry,
              operation: 'update',
              changes: { before: { name: existing.name, sourceId, destinationId, isActive }, after: values },
            },
          );
        } else {
          await audited(
            db,
            request,
            (tx) => tx.insert(sourceDestinations).values({ id, companyId: auth.companyId, ...values, createdBy: auth.userId }),
            { ...entry, operation: 'create', changes: { after: values } },
          );
        }
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
      const { name, sourceId, destinationId } = pair;
      await audited(
        db,
        request,
        (tx) => tx.delete(sourceDestinations).where(companyPairs(auth.companyId, eq(sourceDestinations.id, pair.id))),
        {
          companyId: auth.companyId,
          model: 'source_destination',
          operation: 'delete',
          recordId: pair.id,
          changes: { before: { name, sourceId, destinationId } },
        },
      );
      return { message: `Pair "${pair.name}" deleted` };
    },
  );
}
