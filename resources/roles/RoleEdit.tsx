import { Alert, Skeleton } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Edit, ShowButton, TopToolbar, useCreatePath, useDataProvider, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { CheckedForm } from '../../src/framework/form/CheckedForm';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../providers/alerts';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { failureText } from '../../src/framework/feedback';
import { zodResolver } from '../../src/framework/zodResolver';
import { assignPolicies, changePages, getRolePolicy, policyCatalogueKey, rolePolicyKey } from './api';
import { pageDifference, samePolicies } from './policyMatrix';
import { RoleDeleteAction } from './RoleActions';
import { fieldErrorsOf, RoleEditorInputs } from './RoleEditor';
import { roleEditSchema } from './schemas';
import type { PolicyCatalogue, PolicyEntry, Role } from './types';

interface EditedRole extends Role {
  policies: PolicyEntry[];
  pageIds: string[];
}

function EditActions() {
  return (
    <TopToolbar>
      <ShowButton />
      <RoleDeleteAction />
    </TopToolbar>
  );
}

/**
 * Saves only what changed, each through its own call: the details (`PUT /roles/{id}`), the
 * policies (`PUT /policies/assign/{id}`, the whole matrix), then the pages given
 * (`…/pages/assign/{id}`) and taken away (`…/pages/unassign/{id}`). A refusal stops there with
 * the server's message; the form keeps what was entered, and saving again is safe (every call
 * states the result it wants).
 */
function useRoleSave(role: EditedRole | undefined) {
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const translate = useTranslate();
  return useCallback(
    async (values: FieldValues) => {
      if (!role) return undefined;
      const messages: string[] = [];
      const note = (message: string | undefined) => {
        if (message) messages.push(message);
      };
      alerts.loading();
      try {
        const details = { name: String(values.name ?? '').trim(), description: String(values.description ?? '').trim() };
        if (details.name !== role.name || details.description !== (role.description ?? '')) {
          const result = await dataProvider.update('roles', { id: role.id, data: details, previousData: role });
          note((result.meta as { message?: string } | undefined)?.message);
        }
        const policies = (values.policies as PolicyEntry[] | undefined) ?? [];
        const catalogue = queryClient.getQueryData<PolicyCatalogue>(policyCatalogueKey)?.resources;
        const unchanged = catalogue
          ? samePolicies(role.policies, policies, catalogue)
          : JSON.stringify(role.policies) === JSON.stringify(policies);
        // An admin role holds everything; the server refuses to change its policies.
        if (!role.isAdmin && !unchanged) note(await assignPolicies(role.id, policies));
        const pages = pageDifference(role.pageIds, (values.pageIds as string[] | undefined) ?? []);
        if (pages.assign.length > 0) note(await changePages(role.id, 'assign', pages.assign));
        if (pages.unassign.length > 0) note(await changePages(role.id, 'unassign', pages.unassign));

        const show = createPath({ resource: 'roles', type: 'show', id: role.id });
        alerts.success(messages.length > 0 ? messages.join('. ') : translate('resources.roles.nothing_changed'), { keepFor: show });
        redirect('show', 'roles', role.id);
        // Everything about roles is stale; the show view reloads what it shows as it opens.
        await queryClient.invalidateQueries({ queryKey: ['roles'], refetchType: 'none' });
        return undefined;
      } catch (error) {
        alerts.error(failureText(error));
        return fieldErrorsOf(error);
      }
    },
    [role, dataProvider, queryClient, createPath, translate, redirect],
  );
}

function RoleEditForm() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const declaration = useDeclaration();
  const current = useQuery({
    queryKey: rolePolicyKey(record?.id ?? ''),
    queryFn: ({ signal }) => getRolePolicy(record!.id, signal),
    enabled: Boolean(record),
    retry: false,
  });
  // The role as the form starts from it: its policies and pages as the server holds them now.
  const initial = useMemo<EditedRole | undefined>(
    () =>
      record && current.data
        ? { ...record, ...current.data.role, policies: current.data.policies, pageIds: current.data.pages.map((page) => page.id) }
        : undefined,
    [record, current.data],
  );
  const resolver = useMemo(() => zodResolver(declaration.forms?.edit?.schema ?? roleEditSchema), [declaration]);
  const save = useRoleSave(initial);

  if (!record || current.isPending)
    return (
      <Skeleton variant="rectangular" height={320} sx={{ m: 2 }} role="progressbar" aria-label={translate('resources.roles.loading')} />
    );
  if (current.isError)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {failureText(current.error)}
      </Alert>
    );
  return (
    <CheckedForm record={initial} resolver={resolver} onSubmit={save}>
      <RoleEditorInputs role={initial} />
    </CheckedForm>
  );
}

export default function RoleEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <RoleEditForm />
    </Edit>
  );
}
