import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, MenuItem, TextField } from '@mui/material';

/** A small search box over a list; its placeholder is its accessible name (translated). */
export function SearchField({
  label,
  value,
  onChange,
  fullWidth,
  type,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  fullWidth?: boolean;
  type?: 'search';
}) {
  return (
    <TextField
      size="small"
      type={type}
      fullWidth={fullWidth}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={label}
      slotProps={{
        htmlInput: { 'aria-label': label },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** A one-choice filter over a related list, "any" first (labels translated). */
export function SelectFilter({
  label,
  any,
  value,
  choices,
  onChange,
  minWidth,
}: {
  label: string;
  any: string;
  value: string;
  choices: readonly { id: string; name: string }[];
  onChange: (value: string) => void;
  minWidth: number;
}) {
  return (
    <TextField select size="small" label={label} value={value} onChange={(event) => onChange(event.target.value)} sx={{ minWidth }}>
      <MenuItem value="">{any}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
