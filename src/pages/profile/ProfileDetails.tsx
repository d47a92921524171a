import { Card, CardContent, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Form, SaveButton, TextInput, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { ownProfileSchema } from '../../../common/schemas/users';
import { alerts } from '../../../providers/alerts';
import { getStoredUser, setStoredUser } from '../../../providers/storage';
import { saveOwnProfile } from '../../../resources/users/api';
import { useUsernameFreeCheck } from '../../../resources/users/hooks';
import { withUsernameCheck } from '../../../resources/users/schemas';
import type { User } from '../../../resources/users/types';
import { UsernameInput } from '../../../resources/users/UsernameInput';
import { zodResolver } from '../../framework';
import { failureText } from '../../framework/feedback';
import { AvatarPicker } from './AvatarPicker';

const TEXT_FIELDS = ['firstName', 'lastName', 'username', 'phone'] as const;

function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/**
 * The multipart body of `PUT /user/profile`: the text fields that changed (an emptied one as
 * '', which the server reads as "none"), the new picture as the file `avatar`, or `removeAvatar`.
 */
export function profileForm(values: FieldValues, saved: User): FormData {
  const form = new FormData();
  for (const name of TEXT_FIELDS) {
    if (textOf(values[name]) !== textOf(saved[name])) form.append(name, textOf(values[name]));
  }
  if (values.avatar instanceof File) form.append('avatar', values.avatar, values.avatar.name);
  else if (values.removeAvatar === true) form.append('removeAvatar', 'true');
  return form;
}

function fieldErrorOf(message: string): Record<string, string> | undefined {
  const match = /^(\w+): (.+)$/.exec(message);
  return match && [...TEXT_FIELDS, 'avatar'].includes(match[1]) ? { [match[1]]: match[2] } : undefined;
}

/** Names, username (checked live), phone and picture, saved as a browser form would send them. */
export function ProfileDetails({ user, onSaved }: { user: User; onSaved: (saved: User) => void }) {
  const translate = useTranslate();
  const [avatarVersion, setAvatarVersion] = useState(0);
  const isFree = useUsernameFreeCheck({ kind: 'account' });
  const resolver = useMemo(() => zodResolver(withUsernameCheck(ownProfileSchema, isFree, user.username)), [isFree, user.username]);
  const record = useMemo(
    () => ({ id: user.id, firstName: user.firstName, lastName: user.lastName, username: user.username ?? '', phone: user.phone ?? '' }),
    [user],
  );

  const submit = async (values: FieldValues) => {
    const body = profileForm(values, user);
    if ([...body.keys()].length === 0) {
      alerts.success(translate('resources.users.profile.nothing_changed'));
      return undefined;
    }
    alerts.loading();
    try {
      const result = await saveOwnProfile(body);
      const stored = getStoredUser();
      // The menu shows the stored user's name: keep it in step with the saved one.
      if (stored) setStoredUser({ ...stored, firstName: result.data.firstName, lastName: result.data.lastName });
      if (body.has('avatar') || body.has('removeAvatar')) setAvatarVersion((version) => version + 1);
      onSaved(result.data);
      alerts.success(result.message ?? translate('app.form.saved'));
      return undefined;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return fieldErrorOf(message);
    }
  };

  const heading = translate('resources.users.profile.details');
  return (
    <Card component="section" aria-label={heading}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {heading}
        </Typography>
        {/* Keyed by the saved record: a save starts the form afresh from the server's answer. */}
        <Form key={user.updatedAt} record={record} resolver={resolver} onSubmit={submit} noValidate warnWhenUnsavedChanges>
          <AvatarPicker user={user} version={avatarVersion} />
          <TextInput source="firstName" label="resources.users.fields.firstName" />
          <TextInput source="lastName" label="resources.users.fields.lastName" />
          <UsernameInput check={{ kind: 'account' }} current={user.username} />
          <TextInput source="phone" label="resources.users.fields.phone" type="tel" />
          <SaveButton label="resources.users.profile.save" />
        </Form>
      </CardContent>
    </Card>
  );
}
