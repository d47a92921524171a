import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { answer } from '../../../common/contract/answers';
import type { PolicyAction } from '../../../common/contract/define';
import { sourceDestinationRow, sourceDestinationsContract } from '../../../common/contract/source-destinations';
import { companyPairs, connectionsByIds, findConnection, findPair, pairsOfConnection, selectPairs } from '../../connections/records';
import type { Db } from '../../db/client';
import { sourceDestinations } from '../../db/schema';
import { isUniqueViolation } from '../../http/database-errors';
import { badRequest, conflict, notFound } from '../../http/errors';
import { uuidParam } from '../../http/schemas';
import { actionRoute } from '../../platform/action-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { audited } from '../../platform/audited';
import { registerReadRoute } from '../../platform/list-routes';

const { actions } = sourceDestinationsContract;
const idParams = z.object({ id: uuidParam });
const MODEL = sourceDestinationsContract.audit.model;
/** The rows hold Dates and their types as plain strings, so the handlers' values are not typed by the schemas. */
const pairsAnswer: ZodType<unknown> = answer(z.array(sourceDestinationRow));

/**
 * The source/destination pairs that join a company's connections, under the connections policy:
 * the active ones `/active/source/destination`, those of one connection
 * `/connection/{id}/source/destination` (both by name, all at once), and the contract's actions:
 * the change and delete `/source/destination/{id}`. A pair is made at the id its first change
 * names. Served by hand beside the connections: their two lists answer every pair at once, not a
 * page, and a change makes the pair it does not find.
 */
export function registerPairRoutes(app: FastifyInstance, allowed: (action: PolicyAction) => RouteBase) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets } = api.ctx;
  const reading = allowed('read');
  const updating = allowed('update');
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

  // Answered 201 when it makes the pair and 200 when it changes it.
  actionRoute(
    app,
    updating,
    actions.save,
    async ({ auth: { companyId, userId }, params: { id }, body: { sourceId, destinationId, ...body }, request }) => {
      if (sourceId === destinationId) throw badRequest('destinationId: must differ from the source');
      const found = await connectionsByIds(db, companyId, [sourceId, destinationId]);
      const source = found.get(sourceId);
      const destination = found.get(destinationId);
      if (!source) throw badRequest('sourceId: no such connection');
      if (!destination) throw badRequest('destinationId: no such connection');
      if (!source.isSource) throw badRequest(`sourceId: "${source.name}" is not a source`);
      if (!destination.isDestination) throw badRequest(`destinationId: "${destination.name}" is not a destination`);
      const name = body.name || `${source.name} → ${destination.name}`;
      const existing = await findPair(db, companyId, id);
      const values = { name, sourceId, destinationId, isActive: body.isActive ?? existing?.isActive ?? true };
      const write = async (tx: Db) => {
        if (!existing) await tx.insert(sourceDestinations).values({ id, companyId, ...values, createdBy: userId });
        else
          await tx
            .update(sourceDestinations)
            .set({ ...values, updatedAt: new Date() })
            .where(companyPairs(companyId, eq(sourceDestinations.id, id)));
      };
      const before = existing && {
        name: existing.name,
        sourceId: existing.sourceId,
        destinationId: existing.destinationId,
        isActive: existing.isActive,
      };
      try {
        await audited(db, request, write, {
          companyId,
          model: MODEL,
          operation: existing ? 'update' : 'create',
          recordId: id,
          changes: before ? { before, after: values } : { after: values },
        });
      } catch (err) {
        // Ids are keyed by company (migration 0022): one another company uses is this company's to use too.
        if (isUniqueViolation(err)) throw conflict(`destinationId: "${source.name}" is already paired with "${destination.name}"`);
        throw err;
      }
      const pair = await findPair(db, companyId, id);
      if (!pair) throw notFound('Source/destination pair');
      return {
        status: existing ? 200 : 201,
        answer: { message: existing ? `Pair "${name}" saved` : `Pair "${name}" created`, data: pair },
      };
    },
  );

  actionRoute(app, allowed('delete'), actions.delete, async ({ auth, params, request }) => {
    const pair = await findPair(db, auth.companyId, params.id);
    if (!pair) throw notFound('Source/destination pair');
    const { name, sourceId, destinationId } = pair;
    await audited(
      db,
      request,
      (tx) => tx.delete(sourceDestinations).where(companyPairs(auth.companyId, eq(sourceDestinations.id, pair.id))),
      {
        companyId: auth.companyId,
        model: MODEL,
        operation: 'delete',
        recordId: pair.id,
        changes: { before: { name, sourceId, destinationId } },
      },
    );
    return { message: `Pair "${pair.name}" deleted` };
  });
}
