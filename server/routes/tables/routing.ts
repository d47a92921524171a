import { z } from 'zod';
import { limitParam, offsetParam, uuidParam } from '../../http/schemas';

/** What the tables area's routes share: their tag, their policies and their path parameters. */
export const TAGS = ['Tables'];
export const reading = { config: { policy: ['tables', 'read'] as const }, tags: TAGS };
export const updating = { config: { policy: ['tables', 'update'] as const }, tags: TAGS };
export const idParams = z.object({ id: uuidParam });
/** A page of what belongs to table `id`. */
export const tablePageParams = z.object({ id: uuidParam, offset: offsetParam, limit: limitParam });
