import RefreshIcon from '@mui/icons-material/Refresh';
import TableViewIcon from '@mui/icons-material/TableView';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { LinkBase, useCanAccess, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { RelatedTable, type RelatedColumn } from '../../src/framework/related/RelatedTable';
import { SearchField } from '../../src/framework/related/SearchField';
import { useRelatedList, WHOLE_LIST } from '../../src/framework/related/useRelatedList';
import { holdsTables } from './api';
import { formatBytes, formatCount } from './format';
import { endpointsList } from './related';
import type { Connection, Endpoint } from './types';

export interface EndpointGroup {
  group: string | null;
  endpoints: Endpoint[];
}

/** Endpoints whose name, group, kind or format hold the text, by group (groups by name, ungrouped last). */
export function groupEndpoints(endpoints: readonly Endpoint[], search: string): EndpointGroup[] {
  const needle = search.trim().toLowerCase();
  const matching = needle
    ? endpoints.filter((endpoint) =>
        [endpoint.name, endpoint.group, endpoint.kind, endpoint.format, endpoint.id].some(
          (text) => text && text.toLowerCase().includes(needle),
        ),
      )
    : endpoints;
  const groups = new Map<string | null, Endpoint[]>();
  for (const endpoint of matching) {
    const key = endpoint.group || null;
    groups.set(key, [...(groups.get(key) ?? []), endpoint]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([group, list]) => ({ group, endpoints: [...list].sort((x, y) => x.name.localeCompare(y.name)) }));
}

/** Where "Register table" leads: the registration with this connection and endpoint filled (react-admin's `?source=`). */
export function registerTablePath(
  createPath: ReturnType<typeof useCreatePath>,
  connection: Pick<Connection, 'id'>,
  endpoint: Endpoint,
): string {
  const source = { connectionId: connection.id, endpoint: endpoint.id, name: endpoint.name };
  return `${createPath({ resource: 'tables', type: 'create' })}?source=${encodeURIComponent(JSON.stringify(source))}`;
}

function RegisterTableButton({ connection, endpoint }: { connection: Connection; endpoint: Endpoint }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  return (
    <Button
      size="small"
      component={LinkBase}
      to={registerTablePath(createPath, connection, endpoint)}
      startIcon={<TableViewIcon />}
      aria-label={translate('resources.connections.endpoints.register_of', { name: endpoint.name })}
    >
      {translate('resources.connections.endpoints.register')}
    </Button>
  );
}

/**
 * What the connection reaches, discovered now (`GET /connection/{id}/endpoints`): by group
 * (a schema, a folder), filterable; a source that cannot be reached says so in its own words,
 * with a retry. Tables and files can be registered as tables from here.
 */
export function EndpointsPanel(_: { label?: false }) {
  const record = useRecordContext<Connection>();
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const list = useRelatedList<Endpoint>(endpointsList, record?.id, { perPage: WHOLE_LIST, staleTime: 60_000 });
  const { canAccess: mayRegister } = useCanAccess({ resource: 'tables', action: 'create' });
  if (!record) return null;
  const title = translate('resources.connections.endpoints.title');
  const canRegister = mayRegister === true && (list.rows ?? []).some((endpoint) => holdsTables(endpoint.kind));
  const columns: readonly RelatedColumn<Endpoint>[] = [
    { label: 'resources.connections.endpoints.name', render: (endpoint) => endpoint.name },
    {
      label: 'resources.connections.endpoints.kind',
      render: (endpoint) => translate(`resources.connections.endpoints.kinds.${endpoint.kind}`, { _: endpoint.kind }),
    },
    { label: 'resources.connections.endpoints.format', render: (endpoint) => endpoint.format ?? '—' },
    { label: 'resources.connections.endpoints.size', align: 'right', render: (endpoint) => formatBytes(endpoint.size) },
    { label: 'resources.connections.endpoints.rows', align: 'right', render: (endpoint) => formatCount(endpoint.rows) },
    ...(canRegister
      ? [
          {
            align: 'right' as const,
            render: (endpoint: Endpoint) => holdsTables(endpoint.kind) && <RegisterTableButton connection={record} endpoint={endpoint} />,
          },
        ]
      : []),
  ];
  const reload = (
    <Button size="small" startIcon={<RefreshIcon />} onClick={list.refetch} disabled={list.isFetching}>
      {translate('resources.connections.endpoints.reload')}
    </Button>
  );

  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ width: '100%', mt: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <SearchField label={translate('resources.connections.endpoints.filter')} value={search} onChange={setSearch} />
            {reload}
          </Box>
        </Box>
        <RelatedTable
          list={list}
          label={title}
          columns={columns}
          rowProps={(endpoint) => ({ 'data-endpoint': endpoint.id })}
          groups={(rows) =>
            groupEndpoints(rows, search).map(({ group, endpoints }) => ({
              key: group ?? '',
              label: group ?? translate('resources.connections.endpoints.no_group'),
              rows: endpoints,
            }))
          }
          empty="resources.connections.endpoints.empty"
          noneMatch="resources.connections.endpoints.none_match"
          loadingLabel={translate('resources.connections.endpoints.loading')}
          errorAction={
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={list.refetch} disabled={list.isFetching}>
              {translate('resources.connections.endpoints.retry')}
            </Button>
          }
          paged={false}
        />
      </CardContent>
    </Card>
  );
}
