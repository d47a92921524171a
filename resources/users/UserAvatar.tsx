import { Avatar } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useAvatarUrl } from './hooks';
import { fullName, type User } from './types';

export function initialsOf(user: Pick<User, 'firstName' | 'lastName' | 'email'> | null | undefined): string {
  const letters = [user?.firstName, user?.lastName].map((part) => part?.trim()[0] ?? '').join('');
  return (letters || user?.email?.[0] || '?').toUpperCase();
}

/** A user's picture (read with the token, shown through an object URL), else their initials. */
export function UserAvatar({
  user,
  size = 56,
  version = 0,
  src,
}: {
  user?: User;
  size?: number;
  version?: number;
  src?: string | null;
  label?: false;
}) {
  const record = useRecordContext<User>();
  const shown = user ?? record;
  const url = useAvatarUrl(src === undefined ? shown?.id : undefined, shown?.hasAvatar, version);
  const picture = src ?? url;
  return (
    <Avatar
      src={picture ?? undefined}
      alt={fullName(shown) || shown?.email}
      sx={{ width: size, height: size }}
      data-avatar={picture ? 'picture' : 'initials'}
    >
      {initialsOf(shown)}
    </Avatar>
  );
}
