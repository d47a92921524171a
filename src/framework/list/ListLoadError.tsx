import { Alert, Button } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { failureText } from '../feedback';
import { FirstPageShown, type ToolbarShown } from './ListToolbar';

/**
 * A list whose page could not be read, in place of its rows: the server's message and a retry.
 * No toast (spec §8: a search or filter failure is kept, not raised), and the filter bar still
 * comes, so the filter that failed can be changed.
 */
export function ListLoadError({ shown }: { shown: ToolbarShown }) {
  const { error, refetch } = useListContext();
  const translate = useTranslate();
  return (
    <>
      <Alert
        severity="error"
        data-list-error
        action={
          <Button color="inherit" size="small" onClick={() => refetch()}>
            {translate('app.list.retry')}
          </Button>
        }
      >
        {translate('app.list.load_error', { message: failureText(error) })}
      </Alert>
      <FirstPageShown shown={shown} />
    </>
  );
}
