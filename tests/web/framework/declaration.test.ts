import { z } from 'zod';
import { createI18nProvider } from '../../../providers/i18nProvider';
import { consoleTexts } from '../../../src/app/providers';
import { capabilitiesOf, canSort, defaultHiddenColumns, defaultSortOf, filterSources } from '../../../src/framework/declaration';
import { defineResource } from '../../../src/framework/types';
import { zodResolver } from '../../../src/framework/zodResolver';
import { widgets } from './harness';

const resolverOptions = { fields: {}, shouldUseNativeValidation: false } as never;

describe('what a declaration yields', () => {
  it('capabilities follow the declared routes; a capability without its route is refused', () => {
    expect(capabilitiesOf(widgets)).toEqual({
      create: true,
      edit: true,
      show: true,
      delete: true,
      activate: true,
      export: true,
      bulkDelete: true,
      bulkActivate: true,
    });
    const readOnly = defineResource({
      name: 'logs',
      messages: { en: { name: 'Logs' } },
      fields: [{ source: 'isActive', type: 'boolean' }],
      activation: { field: 'isActive' },
      routes: { list: '/logs/{offset}/{limit}', activate: '/log/activate/{id}' },
      can: { delete: true, bulkActivate: true, export: false },
    });
    expect(capabilitiesOf(readOnly)).toEqual({
      create: false,
      edit: false,
      show: true,
      delete: false,
      activate: false,
      export: false,
      bulkDelete: false,
      bulkActivate: false,
    });
    // Bulk actions follow their row's unless the declaration says otherwise.
    const deletes = defineResource({
      name: 'notes',
      messages: { en: { name: 'Notes' } },
      fields: [{ source: 'isActive', type: 'boolean' }],
      activation: { field: 'isActive' },
      routes: { list: '/notes/{offset}/{limit}', delete: '/note/{id}', activate: '/note/on/{id}', deactivate: '/note/off/{id}' },
    });
    expect(capabilitiesOf(deletes)).toMatchObject({ delete: true, bulkDelete: true, activate: true, bulkActivate: true });
    const oneByOne = defineResource({ ...deletes, can: { bulkDelete: false, activate: false } });
    expect(capabilitiesOf(oneByOne)).toMatchObject({ delete: true, bulkDelete: false, activate: false, bulkActivate: false });
    expect(canSort(readOnly)).toBe(false);
    expect(canSort(widgets)).toBe(true);
    expect(defaultSortOf(widgets)).toEqual({ field: 'createdAt', order: 'DESC' });
    expect(defaultHiddenColumns(widgets)).toEqual(['size', 'tags']);
    expect(filterSources(widgets.filters)).toEqual(['kind', 'status', 'startDate', 'endDate', 'search']);
  });

  it("each declaration's texts join the console's, under resources.<name>", () => {
    const i18n = createI18nProvider([widgets]);
    expect(i18n.translate('resources.widgets.fields.status')).toBe('Condition');
    expect(i18n.translate('resources.widgets.name', { smart_count: 2 })).toBe('Widgets');
    // The framework's own texts and react-admin's are there too.
    expect(i18n.translate('app.list.columns_reset')).toBe('Reset to the company default');
    expect(i18n.translate('ra.action.save')).toBe('Save');
    // The registry's: the outbox brings its own.
    expect((consoleTexts().en as unknown as { resources: Record<string, { name: string }> }).resources.outbox.name).toBe(
      'Mail |||| Mail outbox',
    );
  });
});

describe('the zod resolver', () => {
  const schema = z.object({
    name: z.string().trim().min(3, 'at least 3 characters'),
    phone: z
      .string()
      .regex(/^\+?[0-9 ]+$/, 'digits only')
      .optional(),
    address: z.object({ city: z.string().min(1, 'required') }),
  });

  it('reports the first problem of each field, nested ones at their path', async () => {
    const result = await zodResolver(schema)({ name: 'ab', phone: 'call me', address: { city: '' } }, undefined, resolverOptions);
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      name: { type: 'too_small', message: 'at least 3 characters' },
      phone: { type: 'invalid_format', message: 'digits only' },
      address: { city: { type: 'too_small', message: 'required' } },
    });
  });

  it('reports a problem of the whole form as its root error, so the form is not sent', async () => {
    const strict = z.object({ name: z.string() }).strict();
    const unknownKey = await zodResolver(strict)({ name: 'Ada', colour: 'red' }, undefined, resolverOptions);
    expect(unknownKey.values).toEqual({});
    expect(unknownKey.errors).toEqual({ root: { type: 'unrecognized_keys', message: expect.stringMatching(/colour/) } });
    const across = z.object({ min: z.number(), max: z.number() }).refine((v) => v.min <= v.max, 'min must not be above max');
    const refined = await zodResolver(across)({ min: 5, max: 1 }, undefined, resolverOptions);
    expect(refined.errors).toEqual({ root: { type: 'custom', message: 'min must not be above max' } });
  });

  it("treats an emptied input (react-admin's null) as absent, and keeps the form's other values with the schema's transforms", async () => {
    const result = await zodResolver(schema)(
      { id: 'w-1', name: '  Ada  ', phone: null, address: { city: 'Paris' }, extra: 1 },
      undefined,
      resolverOptions,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ id: 'w-1', name: 'Ada', phone: null, address: { city: 'Paris' }, extra: 1 });
  });
});
