import { z } from 'zod';
import { MARKETPLACE } from '../marketplace';
import { createConnectionBody } from './connections';

/**
 * The marketplace's body (docs/api/marketplace.md): a connection's create body in which the
 * integration stands for the type, checked as `POST /connections` checks its own.
 */

const INTEGRATION_IDS = MARKETPLACE.map((listing) => listing.id);

export const configureIntegrationBody = z
  .object({
    integrationId: z
      .string({ error: 'is required' })
      .refine((id) => INTEGRATION_IDS.includes(id), { message: `must be one of ${INTEGRATION_IDS.join(', ')}` }),
    ...createConnectionBody.omit({ type: true }).shape,
  })
  .strict();
export type ConfigureIntegrationBody = z.output<typeof configureIntegrationBody>;
