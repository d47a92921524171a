import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { answer } from '../../../common/contract/answers';
import {
  connectionCardsAnswer,
  connectionFilterPropsAnswer,
  connectionRow,
  connectionsContract,
} from '../../../common/contract/connections';
import type { PolicyAction } from '../../../common/contract/define';
import { companyConnections, findConnection, selectConnections, toConnectionRow, type ConnectionRow } from '../../connections/records';
import { connections } from '../../db/schema';
import { uuidParam } from '../../http/schemas';
import { actionRoute } from '../../platform/action-route';
import { registerActivationRoute } from '../../platform/activation-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { registerPairRoutes } from './pairs';
import { connectionFilterBody, connectionRepository } from './repository';
import { registerSettingsRoutes } from './settings';

const TAGS = ['Connections'];
const { actions } = connectionsContract;
const idParams = z.object({ id: uuidParam });

/** The rows hold Dates and their types as plain strings, so the handlers' values are not typed by the schemas. */
const connectionAnswer: ZodType<unknown> = answer(connectionRow);
const connectionsAnswer: ZodType<unknown> = answer(z.array(connectionRow));

/** The calls the module serves itself are guarded by the connections policy too. */
const allowed = (action: PolicyAction): RouteBase => ({ config: { policy: [connectionsContract.policy.resource, action] }, tags: TAGS });

/**
 * Connections to sources, destinations and integrations, and the source/destination pairs that
 * join them (docs/api/connections.md). Served from their contract: the list
 * `/connections/{offset}/{limit}`, the filter `/connections/filter/{offset}/{limit}`, its choices
 * `/connections/filters`, the cards `/connections/topCards`, one `/connection/{id}` and the search
 * `/connections/search/{offset}/{limit}`, whose text may be blank (all of them). The module's own:
 * the create, change and test, which check settings and what they reach, seal secrets and audit
 * them by name; the activation, answered `is active`; a workspace's connections, and the pairs.
 * Served from the contract's actions: the test and discovery (./settings.ts) and the
 * integrations' summaries `/connection/slack/integration` and `/connection/bitbucket/integration`.
 */
export const connectionsModule: EntityModule<ConnectionRow> = {
  contract: connectionsContract,
  repository: connectionRepository,
  bodies: { filter: connectionFilterBody },
  own: ['create', 'update', 'activate', 'deactivate'],
  calls: {
    filterProps: {
      summary: 'Choices of the connection filters',
      message: 'Connection filters',
      data: connectionFilterPropsAnswer.shape.data,
    },
    cards: { summary: 'Counts of connections', message: 'Connection cards', data: connectionCardsAnswer.shape.data },
    one: { summary: 'One connection (secrets never answered)', message: 'Connection' },
  },
  routes(app: FastifyInstance) {
    const { db, secrets } = app.ctx;
    const reading = allowed('read');

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

    registerSettingsRoutes(app, allowed);

    registerActivationRoute(app, allowed('update'), {
      method: 'PUT',
      path: '/connections/activate/:id',
      summary: 'Activate or deactivate a connection',
      answer: connectionAnswer,
      noun: 'Connection',
      model: connectionsContract.audit.model,
      find: (companyId, id) => findConnection(db, secrets, companyId, id),
      write: (tx, companyId, id, isActive) =>
        tx
          .update(connections)
          .set({ isActive, updatedAt: new Date() })
          .where(companyConnections(companyId, eq(connections.id, id))),
    });

    /** An integration's connections of `types`, by name, each shown with what `shown` adds of its settings. */
    const integration = async <Shown extends object>(
      companyId: string,
      types: string[],
      shown: (settings: ConnectionRow['settings'], row: ConnectionRow) => Shown,
    ) => {
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
    /** A setting as stored: its type is checked when it is saved (common/connections.ts). */
    const setting = (settings: ConnectionRow['settings'], key: string) => (settings[key] ?? null) as string | null;

    actionRoute(app, reading, actions.slackIntegration, async ({ auth }) => ({
      message: 'Slack integration',
      data: await integration(auth.companyId, ['slack'], (settings) => ({
        mode: setting(settings, 'mode') ?? 'webhook',
        channel: setting(settings, 'channel'),
      })),
    }));

    actionRoute(app, reading, actions.codeIntegration, async ({ auth }) => ({
      message: 'Code-repository integration',
      data: await integration(auth.companyId, ['bitbucket', 'git'], (settings, row) => ({
        type: row.type,
        workspace: setting(settings, 'workspace'),
        url: setting(settings, 'url'),
      })),
    }));

    registerPairRoutes(app, allowed);
  },
};
