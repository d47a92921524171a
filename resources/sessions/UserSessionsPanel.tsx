import { Box, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  DateField,
  Link,
  RecordContextProvider,
  ResourceContextProvider,
  useCanAccess,
  useGetIdentity,
  useRecordContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import { readList } from '../../providers/dataProvider';
import { apiRequest } from '../../providers/http';
import { failureText } from '../../src/framework/feedback';
import type { Session } from '../../common/contract/sessions';
import { EndSessionButton } from './EndSessionButton';
import { userSessionsUrl } from './links';
import { SessionStatus } from './SessionCells';

/** How many of the user's sessions the panel shows; the full list is one click away. */
export const PANEL_SESSIONS = 20;

/** `GET /session/user/{id}`: that user's sessions, open ones first, then the newest. */
export async function fetchUserSessions(userId: Identifier, signal?: AbortSignal): Promise<{ rows: Session[]; more: boolean }> {
  const answer = await apiRequest(`/session/user/${encodeURIComponent(String(userId))}`, {
    query: { offset: 0, limit: PANEL_SESSIONS },
    signal,
  });
  const list = readList(answer);
  return { rows: list.rows as Session[], more: list.countExact === false || (list.count ?? 0) > list.rows.length };
}

export interface UserSessionsPanelProps {
  /** The user; by default the record in context (the users show view's user). */
  userId?: Identifier;
}

/**
 * One user's sessions, for a user's page: when each started and was last seen, from where,
 * whether it is open, with "End session" on the open ones of others (for holders of the
 * `sessions` delete permission) and a link to the full list of their sessions. One's own
 * sessions are always shown; another user's need the `sessions` read permission, without which
 * the panel shows nothing (the server would refuse the call).
 */
export function UserSessionsPanel({ userId }: UserSessionsPanelProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const id = userId ?? record?.id;
  const { identity, isPending: identityPending } = useGetIdentity();
  const { canAccess: mayRead, isPending: accessPending } = useCanAccess({ resource: 'sessions', action: 'list' });
  const own = id !== undefined && identity !== undefined && String(identity.id) === String(id);
  const allowed = id !== undefined && !identityPending && !accessPending && (own || mayRead === true);
  const query = useQuery({
    queryKey: ['sessions', 'user', String(id)],
    queryFn: ({ signal }) => fetchUserSessions(id!, signal),
    enabled: allowed,
    retry: false,
  });
  if (!allowed) return null;

  let body;
  if (query.isPending) {
    body = <Typography variant="body2">{translate('ra.page.loading')}</Typography>;
  } else if (query.isError) {
    body = (
      <Typography variant="body2" color="error">
        {failureText(query.error)}
      </Typography>
    );
  } else if (query.data.rows.length === 0) {
    body = <Typography variant="body2">{translate('resources.sessions.panel.empty')}</Typography>;
  } else {
    body = (
      <Table size="small" aria-label={translate('resources.sessions.panel.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.sessions.fields.createdAt')}</TableCell>
            <TableCell>{translate('resources.sessions.fields.lastSeenAt')}</TableCell>
            <TableCell>{translate('resources.sessions.fields.ip')}</TableCell>
            <TableCell>{translate('resources.sessions.fields.userAgent')}</TableCell>
            <TableCell>{translate('resources.sessions.fields.isDeleted')}</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                {translate('app.list.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {query.data.rows.map((session) => (
            <RecordContextProvider key={session.id} value={session}>
              <TableRow data-session={session.id}>
                <TableCell>
                  <DateField source="createdAt" showTime />
                </TableCell>
                <TableCell>
                  <DateField source="lastSeenAt" showTime emptyText="—" />
                </TableCell>
                <TableCell>{session.ip ?? '—'}</TableCell>
                <TableCell
                  sx={{ maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  title={session.userAgent ?? undefined}
                >
                  {session.userAgent ?? '—'}
                </TableCell>
                <TableCell>
                  <SessionStatus session={session} />
                </TableCell>
                <TableCell align="right">
                  <EndSessionButton />
                </TableCell>
              </TableRow>
            </RecordContextProvider>
          ))}
        </TableBody>
      </Table>
    );
  }

  return (
    <ResourceContextProvider value="sessions">
      <Card variant="outlined" component="section" aria-label={translate('resources.sessions.panel.title')}>
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', mb: 1, gap: 2 }}>
            <Typography variant="h6" component="h2">
              {translate('resources.sessions.panel.title')}
            </Typography>
            {mayRead && <Link to={userSessionsUrl(id!)}>{translate('resources.sessions.panel.all')}</Link>}
          </Box>
          {body}
          {query.data?.more && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
              {translate('resources.sessions.panel.more', { count: PANEL_SESSIONS })}
            </Typography>
          )}
        </CardContent>
      </Card>
    </ResourceContextProvider>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export default UserSessionsPanel;
