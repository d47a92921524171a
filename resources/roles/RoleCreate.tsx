import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Create, useCreatePath, useRedirect, useTranslate } from 'react-admin';
import { CheckedForm } from '../../src/framework/form/CheckedForm';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../providers/alerts';
import { apiRequest } from '../../providers/http';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { routeSpec } from '../../src/framework/declaration';
import { failureText } from '../../src/framework/feedback';
import { zodResolver } from '../../src/framework/zodResolver';
import { DEFAULT_PAGE_IDS } from './policyMatrix';
import { fieldErrorsOf, RoleEditorInputs } from './RoleEditor';
import { roleCreateSchema } from './schemas';
import type { PolicyEntry, RoleDetail } from './types';

const START = { name: '', description: '', policies: [] as PolicyEntry[], pageIds: [...DEFAULT_PAGE_IDS] };

/**
 * A new role in one call: `POST /roles { name, description, policies, pageIds }`. The page list
 * is always sent, so a role given no page gets none (the server's default, the dashboard, is
 * only what the form starts with).
 */
function RoleCreateForm() {
  const declaration = useDeclaration();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const resolver = useMemo(() => zodResolver(declaration.forms?.create?.schema ?? roleCreateSchema), [declaration]);

  const save = useCallback(
    async (values: FieldValues) => {
      const spec = routeSpec(declaration.routes.create!, 'create');
      const body = {
        name: values.name,
        description: values.description ?? '',
        policies: (values.policies as PolicyEntry[] | undefined) ?? [],
        pageIds: (values.pageIds as string[] | undefined) ?? [],
      };
      alerts.loading();
      try {
        const answer = await apiRequest<{ message?: string; data: RoleDetail }>(spec.path, { method: spec.method, body });
        const show = createPath({ resource: 'roles', type: 'show', id: answer.data.id });
        alerts.success(answer.message ?? translate('app.form.created'), { keepFor: show });
        redirect('show', 'roles', answer.data.id, answer.data);
        await queryClient.invalidateQueries({ queryKey: ['roles'], refetchType: 'none' });
        return undefined;
      } catch (error) {
        alerts.error(failureText(error));
        return fieldErrorsOf(error);
      }
    },
    [declaration, queryClient, createPath, translate, redirect],
  );

  return (
    <CheckedForm defaultValues={START} resolver={resolver} onSubmit={save}>
      <RoleEditorInputs />
    </CheckedForm>
  );
}

export default function RoleCreate() {
  return (
    <Create>
      <RoleCreateForm />
    </Create>
  );
}
