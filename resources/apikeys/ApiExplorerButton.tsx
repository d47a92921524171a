import ApiIcon from '@mui/icons-material/Api';
import { Button } from 'react-admin';

export const API_EXPLORER_PATH = '/api-explorer';

/** From the keys to the explorer, where a key's operations can be tried. */
export function ApiExplorerButton() {
  return (
    <Button to={API_EXPLORER_PATH} label="resources.apikeys.explorer.open">
      <ApiIcon />
    </Button>
  );
}
