import { Box } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { TextInput, useTranslate } from 'react-admin';
import type { UsernameCheck } from './api';
import { useUsernameAvailability, type UsernameState } from './hooks';

const COLOURS: Record<UsernameState['state'], string> = {
  idle: 'text.secondary',
  invalid: 'error.main',
  checking: 'text.secondary',
  available: 'success.main',
  taken: 'error.main',
  unknown: 'text.secondary',
};

function hintOf(status: UsernameState, translate: (key: string, options?: object) => string): string {
  switch (status.state) {
    case 'invalid':
      return status.message;
    case 'checking':
      return translate('resources.users.username.checking');
    case 'available':
      return translate('resources.users.username.available');
    case 'taken':
      return translate('resources.users.username.taken');
    case 'unknown':
      return translate('resources.users.username.unknown');
    default:
      return translate('resources.users.username.rules');
  }
}

export interface UsernameInputProps {
  source?: string;
  label?: string;
  check: UsernameCheck;
  /** The account's current name: it is its own, so it needs no check. */
  current?: string | null;
}

/**
 * The username field with a live availability hint under it (checked against the server once the
 * typing pauses). The form's own validation repeats the check on submit, so the hint informs and
 * the schema blocks.
 */
export function UsernameInput({ source = 'username', label = 'resources.users.fields.username', check, current }: UsernameInputProps) {
  const translate = useTranslate();
  const value: unknown = useWatch({ name: source });
  const status = useUsernameAvailability(value, check, current);
  return (
    <TextInput
      source={source}
      label={label}
      autoComplete="off"
      helperText={
        <Box component="span" role="status" aria-live="polite" data-username-state={status.state} sx={{ color: COLOURS[status.state] }}>
          {hintOf(status, translate)}
        </Box>
      }
    />
  );
}
