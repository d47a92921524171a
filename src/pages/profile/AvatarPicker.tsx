import { Box, Button, FormHelperText, Stack } from '@mui/material';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslate } from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../common/schemas/users';
import { UserAvatar } from '../../../resources/users/UserAvatar';
import type { User } from '../../../resources/users/types';

/** A chosen file's preview as an object URL, released when the file changes or the view goes. */
function usePreview(file: File | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

function problemOf(file: File): 'picture_type' | 'picture_size' | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'picture_type';
  if (file.size > AVATAR_MAX_BYTES) return 'picture_size';
  return null;
}

/**
 * The profile picture in the profile form: the current one (or initials), a new one previewed
 * before it is saved, or its removal. The file joins the form's values as `avatar`; the server
 * checks it again by its bytes.
 */
export function AvatarPicker({ user, version }: { user: User; version: number }) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const { setValue, clearErrors } = useFormContext();
  const { errors } = useFormState({ name: 'avatar' });
  const chosen = useWatch({ name: 'avatar' }) as File | null | undefined;
  const removing = useWatch({ name: 'removeAvatar' }) === true;
  const preview = usePreview(chosen);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const wrong = problemOf(file);
    if (wrong) {
      setProblem(translate(`resources.users.profile.${wrong}`));
      return;
    }
    setProblem(null);
    clearErrors('avatar');
    setValue('avatar', file, { shouldDirty: true });
    setValue('removeAvatar', undefined, { shouldDirty: true });
  };

  const remove = () => {
    setProblem(null);
    setValue('avatar', undefined, { shouldDirty: true });
    setValue('removeAvatar', true, { shouldDirty: true });
  };

  const serverProblem = errors.avatar?.message;
  const shown = removing ? null : preview;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
      <UserAvatar user={removing ? { ...user, hasAvatar: false } : user} size={72} version={version} src={shown ?? (removing ? null : undefined)} />
      <Box>
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" onClick={() => input.current?.click()}>
            {translate('resources.users.profile.choose_picture')}
          </Button>
          {(user.hasAvatar || chosen) && !removing && (
            <Button size="small" color="error" onClick={remove}>
              {translate('resources.users.profile.remove_picture')}
            </Button>
          )}
        </Stack>
        <input
          ref={input}
          type="file"
          hidden
          accept={AVATAR_TYPES.join(',')}
          aria-label={translate('resources.users.profile.picture')}
          data-testid="avatar-file"
          onChange={choose}
        />
        <FormHelperText error={Boolean(problem || serverProblem)}>
          {problem ?? (typeof serverProblem === 'string' ? serverProblem : null) ?? translate('resources.users.profile.picture_rules')}
        </FormHelperText>
      </Box>
    </Stack>
  );
}
