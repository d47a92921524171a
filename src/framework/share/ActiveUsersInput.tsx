import { Autocomplete, TextField } from '@mui/material';
import { failureText } from '../feedback';
import { personName, useActiveUsers, type ActiveUser } from './shares';

export interface ActiveUsersInputProps {
  /** Whether the company's active users are fetched (the dialog holding the input is open). */
  enabled: boolean;
  value: ActiveUser[];
  onChange: (users: ActiveUser[]) => void;
  label: string;
  /** Shown under the input, unless the users could not be fetched (then that failure is). */
  helperText: string;
}

/** Chooses some of the company's active users (`GET /users/active`), by name and email. */
export function ActiveUsersInput({ enabled, value, onChange, label, helperText }: ActiveUsersInputProps) {
  const users = useActiveUsers(enabled);
  return (
    <Autocomplete
      multiple
      options={users.data ?? []}
      loading={users.isPending}
      value={value}
      onChange={(_, chosen) => onChange(chosen)}
      getOptionLabel={(user) => `${personName(user)} (${user.email})`}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      filterSelectedOptions
      renderInput={(params) => (
        <TextField {...params} label={label} helperText={users.isError ? failureText(users.error) : helperText} error={users.isError} />
      )}
    />
  );
}
