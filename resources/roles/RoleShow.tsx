import { Alert, Box, Divider, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EditButton, Link, Show, SimpleShowLayout, TopToolbar, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { fieldLabelKey, showFields } from '../../src/framework/declaration';
import { failureText } from '../../src/framework/feedback';
import { FieldValue } from '../../src/framework/FieldValue';
import { getRoleHolders, getRolePolicy, HOLDERS_SHOWN, roleHoldersKey, rolePolicyKey, usersOfRoleUrl } from './api';
import { PageList, usePageCatalogue } from './PageChecklist';
import { LoadedPolicyMatrix } from './PolicyMatrix';
import { RoleDeleteAction } from './RoleActions';
import type { Role } from './types';

function ShowActions() {
  return (
    <TopToolbar>
      <EditButton />
      <RoleDeleteAction />
    </TopToolbar>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" aria-label={translate(title)} sx={{ px: 2, pb: 2 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

/** What the role holds (`GET /roles/policy/{id}`): the matrix, read-only, and its pages by menu group. */
function HeldSection() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const held = useQuery({
    queryKey: rolePolicyKey(record?.id ?? ''),
    queryFn: ({ signal }) => getRolePolicy(record!.id, signal),
    enabled: Boolean(record),
    retry: false,
  });
  const catalogue = usePageCatalogue();
  if (!record) return null;
  if (held.isPending)
    return (
      <Skeleton variant="rectangular" height={200} sx={{ mx: 2 }} role="progressbar" aria-label={translate('resources.roles.loading')} />
    );
  if (held.isError)
    return (
      <Alert severity="error" sx={{ mx: 2 }}>
        {failureText(held.error)}
      </Alert>
    );
  // The role's pages carry their group's key; the catalogue knows its title.
  const pages = held.data.pages.map((page) => ({ ...page, groupTitle: catalogue.data?.find((entry) => entry.id === page.id)?.groupTitle }));
  return (
    <>
      <Section title="resources.roles.matrix.title">
        <LoadedPolicyMatrix value={held.data.policies} isAdmin={record.isAdmin} />
      </Section>
      <Section title="resources.roles.pages.title">
        <PageList pages={pages} />
      </Section>
    </>
  );
}

function holderName(holder: { email: string; firstName?: string | null; lastName?: string | null }): string {
  const name = [holder.firstName, holder.lastName].filter(Boolean).join(' ');
  return name ? `${name} (${holder.email})` : holder.email;
}

/** Who holds the role: the first few, and the users list filtered on it for all of them. */
function HoldersSection() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const { canAccess: mayReadUsers } = useCanAccess({ resource: 'users', action: 'list' });
  const holders = useQuery({
    queryKey: roleHoldersKey(record?.id ?? ''),
    queryFn: ({ signal }) => getRoleHolders(record!.id, signal),
    enabled: Boolean(record) && mayReadUsers === true && (record?.userCount ?? 0) > 0,
    retry: false,
  });
  if (!record) return null;
  const count = record.userCount ?? 0;
  return (
    <Section title="resources.roles.holders.title">
      <Typography variant="body2" sx={{ mb: 1 }}>
        {count === 0 ? translate('resources.roles.holders.none') : translate('resources.roles.holders.count', { smart_count: count })}
      </Typography>
      {mayReadUsers && count > 0 && (
        <>
          {holders.isError && <Alert severity="warning">{failureText(holders.error)}</Alert>}
          {holders.data && (
            <Box component="ul" aria-label={translate('resources.roles.holders.title')} sx={{ m: 0, mb: 1, pl: 3 }}>
              {holders.data.map((holder) => (
                <li key={holder.id}>
                  <Typography variant="body2">{holderName(holder)}</Typography>
                </li>
              ))}
            </Box>
          )}
          <Link to={usersOfRoleUrl(record.id)}>
            {translate(count > HOLDERS_SHOWN ? 'resources.roles.holders.see_all' : 'resources.roles.holders.see_list', {
              smart_count: count,
            })}
          </Link>
        </>
      )}
    </Section>
  );
}

/** A role: its details, what it allows, its pages and who holds it. */
export default function RoleShow() {
  const declaration = useDeclaration();
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        {showFields(declaration).map((field) => (
          <FieldValue key={field.source} field={field} source={field.source} label={fieldLabelKey(declaration.name, field)} />
        ))}
      </SimpleShowLayout>
      <HeldSection />
      <HoldersSection />
    </Show>
  );
}
