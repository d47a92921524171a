import LoginIcon from '@mui/icons-material/Login';
import { Avatar, Button, Card, Chip, List, ListItem, ListItemAvatar, ListItemText, Skeleton, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { displayName } from '../../../providers/impersonation';
import type { ActiveUser } from '../../../providers/dataProvider';
import { useSignInAs } from '../useImpersonation';
import { useActiveUsers } from './useDashboard';

function initials(user: ActiveUser): string {
  const letters = [user.firstName, user.lastName].map((part) => part?.trim()[0] ?? '').join('');
  return (letters || user.email[0] || '?').toUpperCase();
}

function Person({ user, isSelf, pending, onSignInAs }: { user: ActiveUser; isSelf: boolean; pending: boolean; onSignInAs: () => void }) {
  const translate = useTranslate();
  const name = displayName(user);
  return (
    <ListItem
      divider
      secondaryAction={
        isSelf ? (
          <Chip size="small" label={translate('app.dashboard.you')} />
        ) : (
          <Button
            size="small"
            startIcon={<LoginIcon />}
            disabled={pending}
            aria-label={translate('app.dashboard.sign_in_as_label', { name })}
            onClick={onSignInAs}
          >
            {translate('app.dashboard.sign_in_as')}
          </Button>
        )
      }
    >
      <ListItemAvatar>
        <Avatar>{initials(user)}</Avatar>
      </ListItemAvatar>
      <ListItemText
        primary={
          <>
            {name}
            {user.isAdmin && <Chip size="small" variant="outlined" label={translate('app.dashboard.admin')} sx={{ ml: 1 }} />}
          </>
        }
        secondary={[user.email, user.roleName].filter(Boolean).join(' · ')}
        slotProps={{ secondary: { noWrap: true } }}
        sx={{ pr: 16 }}
      />
    </ListItem>
  );
}

/**
 * The company's active users, with "Sign in as" for every other one: where admins start an
 * impersonation until the users area arrives.
 */
export function PeoplePanel({ currentUserId }: { currentUserId: string | undefined }) {
  const translate = useTranslate();
  const { data: users, isPending } = useActiveUsers();
  const { pendingUserId, signInAs } = useSignInAs();
  const heading = translate('app.dashboard.people');
  const others = (users ?? []).filter((user) => user.id !== currentUserId);
  return (
    <Card component="section" aria-label={heading} aria-busy={isPending} sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
        {heading}
      </Typography>
      {isPending ? (
        <List>
          {[0, 1, 2].map((index) => (
            <ListItem key={index} aria-hidden>
              <Skeleton variant="circular" width={40} height={40} sx={{ mr: 2 }} />
              <Skeleton width="50%" />
            </ListItem>
          ))}
        </List>
      ) : (
        <List>
          {(users ?? []).map((user) => (
            <Person
              key={user.id}
              user={user}
              isSelf={user.id === currentUserId}
              pending={pendingUserId !== null}
              onSignInAs={() => signInAs(user.id)}
            />
          ))}
          {users && others.length === 0 && (
            <ListItem>
              <ListItemText secondary={translate('app.dashboard.people_empty')} />
            </ListItem>
          )}
        </List>
      )}
    </Card>
  );
}
