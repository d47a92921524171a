import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { EntityModule } from '../../server/platform/entity-routes';
import { companyTableRepository } from '../../server/platform/table-repository';
import { labelsContract, type Label } from './labels-contract';

/** The server's half of the sample entity: its table, the migration that makes it, and its module. */

export const labels = pgTable('labels', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  ownerId: uuid('owner_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a migration adding labels holds: the table only; its row-level security comes from the migrator. */
export const LABELS_SQL = `
  create table labels (
    id uuid primary key default gen_random_uuid(),
    company_id uuid not null references companies(id),
    name text not null,
    colour text not null,
    is_active boolean not null default true,
    owner_id uuid,
    created_at timestamptz not null default now(),
    unique (company_id, name)
  );`;

/** Labels are read and kept as the contract says; their one rule, a name unique in the company, is the table's key. */
export const labelsModule: EntityModule<Label> = {
  contract: labelsContract,
  repository: companyTableRepository<Label, typeof labels>({
    contract: labelsContract,
    table: labels,
    taken: 'A label with this name already exists',
    created: (scope) => ({ ownerId: scope.auth.userId }),
    filterProps: async () => ({ colour: ['red', 'blue', 'green'].map((colour) => ({ id: colour, name: colour })) }),
    related: { owner: 'ownerId' },
  }),
};
