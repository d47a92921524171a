import { Box, Card, CardContent, Typography } from '@mui/material';
import { Link, ResourceContextProvider, useCanAccess, useGetIdentity, useRecordContext, useTranslate, type Identifier } from 'react-admin';
import { RelatedList } from '../../src/framework/related/RelatedList';
import { EndSessionButton } from './EndSessionButton';
import { userSessionsUrl } from './links';
import { sessions } from './index';

/** How many of the user's sessions a page of the panel shows; the full list is one click away. */
export const PANEL_SESSIONS = 20;

const COLUMNS = ['createdAt', 'lastSeenAt', 'ip', 'userAgent', 'isDeleted'] as const;
const ROW_ACTIONS = [EndSessionButton];

export interface UserSessionsPanelProps {
  /** The user; by default the record in context (the users show view's user). */
  userId?: Identifier;
}

/**
 * One user's sessions, for a user's page (`GET /session/user/{id}`, the sessions contract's list
 * by user): when each started and was last seen, from where, whether it is open, with "End
 * session" on the open ones of others (for holders of the `sessions` delete permission) and a
 * link to the full list of their sessions. One's own sessions are always shown; another user's
 * need the `sessions` read permission, without which the panel shows nothing (the server would
 * refuse the call).
 */
export function UserSessionsPanel({ userId }: UserSessionsPanelProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const id = userId ?? record?.id;
  const { identity, isPending: identityPending } = useGetIdentity();
  const { canAccess: mayRead, isPending: accessPending } = useCanAccess({ resource: 'sessions', action: 'list' });
  const own = id !== undefined && identity !== undefined && String(identity.id) === String(id);
  const allowed = id !== undefined && !identityPending && !accessPending && (own || mayRead === true);
  if (!allowed) return null;

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
          <RelatedList
            of={sessions}
            target="user"
            record={{ id: id! }}
            columns={COLUMNS}
            perPage={PANEL_SESSIONS}
            rowActions={ROW_ACTIONS}
            empty="resources.sessions.panel.empty"
            label="resources.sessions.panel.title"
          />
        </CardContent>
      </Card>
    </ResourceContextProvider>
  );
}

export default UserSessionsPanel;
