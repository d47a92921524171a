import { z } from 'zod';
import { defineContract, everyAction } from '../../common/contract/define';

/**
 * A sample entity, declared only for the tests: labels a company's users make, each with a
 * colour, listed by their owner too. The server serves it from this contract and its module
 * (labels-module.ts; tests/server/sample-entity.test.ts); the console declares it over the same
 * contract against a fake made from it (tests/web/framework/sampleEntity.test.tsx).
 */

export const labelRow = z.object({
  id: z.uuid(),
  name: z.string(),
  colour: z.enum(['red', 'blue', 'green']),
  isActive: z.boolean(),
  ownerId: z.uuid().nullable(),
  createdAt: z.string(),
});
export type Label = z.infer<typeof labelRow>;

const labelName = z.string({ error: 'is required' }).trim().min(1, 'is required').max(40, 'must be at most 40 characters');
const labelColour = z.enum(['red', 'blue', 'green'], { error: 'must be red, blue or green' });

export const labelsContract = defineContract({
  name: 'labels',
  noun: { one: 'label', many: 'labels' },
  row: labelRow,
  fields: [
    { source: 'name', type: 'text', sortable: true, searchable: true },
    { source: 'colour', type: 'status', sortable: true },
    { source: 'isActive', type: 'boolean' },
    { source: 'createdAt', type: 'datetime', sortable: true },
  ],
  bodies: {
    create: z.object({ name: labelName, colour: labelColour }),
    update: z.object({ name: labelName.optional(), colour: labelColour.optional() }),
    filter: z.object({ colour: z.array(labelColour).optional(), search: z.string().max(100).optional() }),
  },
  routes: {
    list: '/labels/{offset}/{limit}',
    filter: { path: '/labels/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/labels/filter/props',
    one: '/label/{id}',
    create: '/label',
    update: '/label/{id}',
    delete: '/label/{id}',
    activate: '/label/activate/{id}',
    deactivate: '/label/deactivate/{id}',
  },
  related: { owner: '/user/{id}/labels?offset={offset}&limit={limit}' },
  policy: everyAction('labels', 'Labels', 99),
  audit: { model: 'label' },
  activation: { field: 'isActive' },
});
