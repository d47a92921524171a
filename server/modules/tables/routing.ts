import { z } from 'zod';
import type { PolicyAction } from '../../../common/contract/define';
import { tablesContract } from '../../../common/contract/tables';
import { limitParam, offsetParam, uuidParam } from '../../http/schemas';
import type { RouteBase } from '../../platform/answer-route';

/** The calls the module serves itself, guarded by the tables policy and listed under its tag. */
export const allowed = (action: PolicyAction): RouteBase => ({
  config: { policy: [tablesContract.policy.resource, action] },
  tags: ['Tables'],
});
export const idParams = z.object({ id: uuidParam });
/** A page of what belongs to table `id`. */
export const tablePageParams = z.object({ id: uuidParam, offset: offsetParam, limit: limitParam });
