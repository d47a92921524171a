import RefreshIcon from '@mui/icons-material/Refresh';
import SearchIcon from '@mui/icons-material/Search';
import TableViewIcon from '@mui/icons-material/TableView';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  InputAdornment,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { LinkBase, useCanAccess, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { holdsTables, useEndpoints } from './api';
import { formatBytes, formatCount } from './format';
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

function EndpointsTable({ connection, groups, canRegister }: { connection: Connection; groups: EndpointGroup[]; canRegister: boolean }) {
  const translate = useTranslate();
  const columns = canRegister ? 6 : 5;
  return (
    <Table size="small" aria-label={translate('resources.connections.endpoints.title')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.connections.endpoints.name')}</TableCell>
          <TableCell>{translate('resources.connections.endpoints.kind')}</TableCell>
          <TableCell>{translate('resources.connections.endpoints.format')}</TableCell>
          <TableCell align="right">{translate('resources.connections.endpoints.size')}</TableCell>
          <TableCell align="right">{translate('resources.connections.endpoints.rows')}</TableCell>
          {canRegister && <TableCell />}
        </TableRow>
      </TableHead>
      {groups.map(({ group, endpoints }) => (
        <TableBody key={group ?? ''} data-group={group ?? ''}>
          <TableRow>
            <TableCell component="th" scope="rowgroup" colSpan={columns} sx={{ fontWeight: 600, bgcolor: 'action.hover' }}>
              {group ?? translate('resources.connections.endpoints.no_group')}
            </TableCell>
          </TableRow>
          {endpoints.map((endpoint) => (
            <TableRow key={endpoint.id} data-endpoint={endpoint.id}>
              <TableCell>{endpoint.name}</TableCell>
              <TableCell>{translate(`resources.connections.endpoints.kinds.${endpoint.kind}`, { _: endpoint.kind })}</TableCell>
              <TableCell>{endpoint.format ?? '—'}</TableCell>
              <TableCell align="right">{formatBytes(endpoint.size)}</TableCell>
              <TableCell align="right">{formatCount(endpoint.rows)}</TableCell>
              {canRegister && (
                <TableCell align="right">
                  {holdsTables(endpoint.kind) && <RegisterTableButton connection={connection} endpoint={endpoint} />}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      ))}
    </Table>
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
  const query = useEndpoints(record?.id);
  const { canAccess: mayRegister } = useCanAccess({ resource: 'tables', action: 'create' });
  const groups = useMemo(() => groupEndpoints(query.data ?? [], search), [query.data, search]);
  if (!record) return null;
  const title = translate('resources.connections.endpoints.title');

  let body;
  if (query.isPending) {
    body = <Skeleton variant="rectangular" height={120} aria-label={translate('resources.connections.endpoints.loading')} />;
  } else if (query.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={() => void query.refetch()} disabled={query.isFetching}>
            {translate('resources.connections.endpoints.retry')}
          </Button>
        }
      >
        {failureText(query.error)}
      </Alert>
    );
  } else if (query.data.length === 0) {
    body = <Typography variant="body2">{translate('resources.connections.endpoints.empty')}</Typography>;
  } else if (groups.length === 0) {
    body = <Typography variant="body2">{translate('resources.connections.endpoints.none_match')}</Typography>;
  } else {
    const canRegister = mayRegister === true && query.data.some((endpoint) => holdsTables(endpoint.kind));
    body = <EndpointsTable connection={record} groups={groups} canRegister={canRegister} />;
  }

  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ width: '100%', mt: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <TextField
              size="small"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={translate('resources.connections.endpoints.filter')}
              slotProps={{
                htmlInput: { 'aria-label': translate('resources.connections.endpoints.filter') },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Button size="small" startIcon={<RefreshIcon />} onClick={() => void query.refetch()} disabled={query.isFetching}>
              {translate('resources.connections.endpoints.reload')}
            </Button>
          </Box>
        </Box>
        {body}
      </CardContent>
    </Card>
  );
}
