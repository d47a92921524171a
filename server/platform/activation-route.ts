import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { activateRoleBody as activationBody } from '../../common/schemas/roles';
import type { Db } from '../db/client';
import { uuidParam } from '../http/schemas';
import { answerRoute, type AnswerOf, type RouteBase } from './answer-route';
import { audited } from './audited';

const idParams = z.object({ id: uuidParam });

/** A route that activates or deactivates one record, `{ isActive }` in its body. */
export interface ActivationRoute<Answer extends ZodType> {
  method: 'POST' | 'PUT';
  path: string;
  summary: string;
  answer: Answer;
  /** How the answer names the record: `Table` → `Table "Orders" is active`. */
  noun: string;
  /** The audit entry's model. */
  model: string;
  /** The record as the answer gives it; a missing one is the 404 it throws. */
  find: (companyId: string, id: string) => Promise<{ name: string; isActive: boolean }>;
  /** Stores the new state. */
  write: (tx: Db, companyId: string, id: string, isActive: boolean) => Promise<unknown>;
  /** What must follow a change, once it is kept (a workflow's schedule, say). */
  changed?: (companyId: string, id: string) => Promise<unknown>;
}

/** A record that is already in the state asked for is left as it is, without an audit entry. */
export function registerActivationRoute<Answer extends ZodType>(
  app: FastifyInstance,
  base: RouteBase,
  route: ActivationRoute<Answer>,
): void {
  const { method, path, summary, answer, noun, model, find, write, changed } = route;
  answerRoute(
    app,
    base,
    { method, path, summary, params: idParams, body: activationBody, answer },
    async ({ auth, params: { id }, body: { isActive }, request }) => {
      const { companyId } = auth;
      const current = await find(companyId, id);
      if (current.isActive !== isActive) {
        await audited(app.ctx.db, request, (tx) => write(tx, companyId, id, isActive), {
          companyId,
          model,
          operation: isActive ? 'activate' : 'deactivate',
          recordId: id,
          changes: { before: { isActive: !isActive }, after: { isActive } },
        });
        await changed?.(companyId, id);
      }
      const data = await find(companyId, id);
      return { message: `${noun} "${current.name}" is ${isActive ? 'active' : 'deactivated'}`, data } as AnswerOf<Answer>;
    },
  );
}
