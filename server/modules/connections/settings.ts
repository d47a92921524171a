import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import { connectionTypeOf } from '../../../common/connections';
import { answer } from '../../../common/contract/answers';
import { connectionRow, connectionsContract } from '../../../common/contract/connections';
import type { PolicyAction } from '../../../common/contract/define';
import { createConnectionBody, updateConnectionBody } from '../../../common/schemas/connections';
import { requireAuth } from '../../auth/guard';
import { createConnection, recordConnectionTest, runConnectionTest, settingsOrThrow, updateConnection } from '../../connections/lifecycle';
import { checkConnectionReach } from '../../connections/reach-check';
import { connectionConfig } from '../../connections/records';
import { within as withinTime } from '../../connectors/registry';
import { ConnectorError } from '../../connectors/types';
import { uuidParam } from '../../http/schemas';
import { actionRoute } from '../../platform/action-route';
import type { RouteBase } from '../../platform/answer-route';

/** How long endpoint discovery may take. */
const ENDPOINTS_TIMEOUT_MS = 30_000;

const { actions } = connectionsContract;
const idParams = z.object({ id: uuidParam });
/** The rows hold Dates and their types as plain strings, so the handlers' values are not typed by the schemas. */
const connectionAnswer: ZodType<unknown> = answer(connectionRow);

/**
 * The calls that take a connection's settings or reach out with them: the create `/connections`,
 * the change `/connection/{id}` (blank secrets are kept); from the contract's actions, the test
 * `/connection/{id}/configure` and the discovery `/connection/{id}/endpoints`. Settings are
 * checked against their type's declarations and against what this server lets companies reach
 * before anything is stored or dialled; secrets are sealed, and audited by their names only.
 */
export function registerSettingsRoutes(app: FastifyInstance, allowed: (action: PolicyAction) => RouteBase) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors } = api.ctx;
  const store = { db, secrets, reach: connectors.context };
  const { config: creating, tags } = allowed('create');
  const updating = allowed('update');

  api.post(
    '/connections',
    { config: creating, schema: { summary: 'Create a connection', tags, body: createConnectionBody, response: { 201: connectionAnswer } } },
    async (request, reply) => {
      const row = await createConnection(store, request, requireAuth(request), request.body);
      return reply.code(201).send({ message: `Connection "${row.name}" created`, data: row });
    },
  );

  api.put(
    '/connection/:id',
    {
      config: updating.config,
      schema: {
        summary: 'Edit a connection (blank secrets are kept)',
        tags,
        params: idParams,
        body: updateConnectionBody,
        response: { 200: connectionAnswer },
      },
    },
    async (request) => {
      const { row, changed } = await updateConnection(store, request, requireAuth(request), request.params.id, request.body);
      return { message: changed ? `Connection "${row.name}" saved` : 'Nothing to change', data: row };
    },
  );

  actionRoute(app, updating, actions.test, async ({ auth, params: { id }, body, request }) => {
    const stored = await connectionConfig(db, secrets, auth.companyId, id);
    const declaration = connectionTypeOf(stored.type)!;
    const given = body.settings;
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
  });

  actionRoute(app, allowed('read'), actions.endpoints, async ({ auth: { companyId }, params }) => {
    const config = await connectionConfig(db, secrets, companyId, params.id);
    const endpoints = await connectors.use(config, (connector) =>
      withinTime(ENDPOINTS_TIMEOUT_MS, 'Listing what the connection reaches', connector.endpoints()),
    );
    return { message: `${endpoints.length} endpoints`, data: endpoints };
  });
}
