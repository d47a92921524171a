import ApiIcon from '@mui/icons-material/Api';
import { Button, LinkBase } from 'react-admin';

export const API_EXPLORER_PATH = '/api-explorer';

/** From the keys to the explorer, where a key's operations can be tried. */
export function ApiExplorerButton() {
  return (
    <Button component={LinkBase} to={API_EXPLORER_PATH} label="resources.apikeys.explorer.open">
      <ApiIcon />
    </Button>
  );
}
