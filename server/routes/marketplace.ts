import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ConnectionType } from '../../common/connections';
import { integrationOf, MARKETPLACE, marketplaceListing, type MarketplaceListing } from '../../common/marketplace';
import { cloudStorageAnswer, configuredAnswer, integrationAnswer, marketplaceAnswer } from '../../common/contract/answers/marketplace';
import { sent } from '../platform/answers';
import { configureIntegrationBody } from '../../common/schemas/marketplace';
import { requireAuth } from '../auth/guard';
import { createConnection, recordConnectionTest, runConnectionTest } from '../connections/lifecycle';
import { companyConnections, connectionConfig, findConnection, selectConnections, toConnectionRow } from '../connections/records';
import type { Db } from '../db/client';
import { connections } from '../db/schema';
import { badRequest, notFound } from '../http/errors';

const TAGS = ['Marketplace'];
const read = { policy: ['marketplace', 'read'] as const };
const ALL = 'all';

const integrationParams = z.object({ id: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });
const CLOUD_STORAGE = MARKETPLACE.filter((listing) => listing.category === 'cloud_storage');

interface Usage {
  connections: number;
  activeConnections: number;
}

/** How many connections of each type the company has, and how many of them are active. */
async function usageByType(db: Db, companyId: string): Promise<Map<string, Usage>> {
  const rows = await db
    .select({
      type: connections.type,
      connections: sql<number>`count(*)`.mapWith(Number),
      activeConnections: sql<number>`count(*) filter (where ${connections.isActive})`.mapWith(Number),
    })
    .from(connections)
    .where(eq(connections.companyId, companyId))
    .groupBy(connections.type);
  return new Map(rows.map(({ type, ...usage }) => [type, usage]));
}

/** An integration as a card: its declaration, and whether the company uses it. */
function card(listing: MarketplaceListing, usage: Usage | undefined) {
  const counts = usage ?? { connections: 0, activeConnections: 0 };
  return { ...integrationOf(listing), active: counts.activeConnections > 0, ...counts };
}

function listingOrThrow(id: string): MarketplaceListing {
  const listing = marketplaceListing(id);
  if (!listing) throw notFound('Integration');
  return listing;
}

/**
 * The marketplace of integrations (docs/api/marketplace.md): the catalogue of common/marketplace.ts
 * as cards with the company's use of each, one integration with its settings form and connections,
 * the active cloud-storage connections for pickers, and configuring an integration — which makes a
 * connection through the connections area's own code path and tests it at once.
 */
export async function marketplaceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors } = api.ctx;

  const connectionsOfTypes = async (companyId: string, types: ConnectionType[], onlyActive: boolean) => {
    const where = and(inArray(connections.type, types), onlyActive ? eq(connections.isActive, true) : undefined);
    const rows = await selectConnections(db)
      .where(companyConnections(companyId, where))
      .orderBy(asc(sql`lower(${connections.name})`), asc(connections.id));
    return rows.map((row) => toConnectionRow(secrets, row));
  };

  api.get(
    '/marketplace',
    {
      config: read,
      schema: {
        summary: 'The marketplace of integrations, with the company’s use of each',
        tags: TAGS,
        response: { 200: sent(marketplaceAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const usage = await usageByType(db, companyId);
      return { message: 'Marketplace', data: MARKETPLACE.map((listing) => card(listing, usage.get(listing.connectionType))) };
    },
  );

  api.get(
    '/marketplace/:id/integration',
    {
      config: read,
      schema: {
        summary: 'One integration: its settings form and the company’s connections of it',
        tags: TAGS,
        params: integrationParams,
        response: { 200: sent(integrationAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const listing = listingOrThrow(request.params.id);
      const [usage, rows] = await Promise.all([usageByType(db, companyId), connectionsOfTypes(companyId, [listing.connectionType], false)]);
      const integration = card(listing, usage.get(listing.connectionType));
      return { message: integration.name, data: { integration, connections: rows } };
    },
  );

  api.get(
    '/marketplace/active/cloudStorage/:id',
    {
      config: read,
      schema: {
        summary: 'The active connections of a cloud-storage integration (or of all of them: "all"), for pickers',
        tags: TAGS,
        params: integrationParams,
        response: { 200: sent(cloudStorageAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id } = request.params;
      let listings = CLOUD_STORAGE;
      if (id !== ALL) {
        const listing = listingOrThrow(id);
        if (listing.category !== 'cloud_storage') {
          throw badRequest(
            `id: "${id}" is not a cloud-storage integration (one of ${[...CLOUD_STORAGE.map((l) => l.id), ALL].join(', ')})`,
          );
        }
        listings = [listing];
      }
      const integrationOfType = new Map(listings.map((listing) => [listing.connectionType as string, listing.id]));
      const rows = await connectionsOfTypes(companyId, [...integrationOfType.keys()] as ConnectionType[], true);
      return {
        message: 'Active cloud-storage connections',
        data: rows.map((row) => ({ ...row, integrationId: integrationOfType.get(row.type)! })),
      };
    },
  );

  api.post(
    '/marketplace/configure',
    {
      config: { policy: ['marketplace', 'create'] },
      schema: {
        summary: 'Configure an integration: make its connection and test it at once',
        tags: TAGS,
        body: configureIntegrationBody,
        response: { 201: sent(configuredAnswer) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { integrationId, ...fields } = request.body;
      const listing = listingOrThrow(integrationId);
      // The same checks, sealing, audit and refusals as POST /connections; the audit says where it came from.
      const created = await createConnection(
        { db, secrets, reach: api.ctx.connectors.context },
        request,
        auth,
        { ...fields, type: listing.connectionType },
        { integrationId },
      );
      // A connection that fails its test is kept: its settings are fixed on its page, without typing the rest again.
      const outcome = await runConnectionTest(connectors, await connectionConfig(db, secrets, auth.companyId, created.id));
      await recordConnectionTest(db, request, auth.companyId, created.id, outcome);
      const connection = await findConnection(db, secrets, auth.companyId, created.id);
      const message = outcome.ok
        ? `Connection "${connection.name}" created and tested: connected in ${outcome.latencyMs} ms`
        : `Connection "${connection.name}" created, but its test failed: ${outcome.message}`;
      return reply.code(201).send({
        message,
        data: {
          connection,
          test: {
            ok: outcome.ok,
            latencyMs: outcome.latencyMs,
            detail: outcome.detail,
            message: outcome.message,
            testedAt: outcome.testedAt,
          },
        },
      });
    },
  );
}
