import StopCircleIcon from '@mui/icons-material/StopCircleOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { isLive } from './cells';
import { useCancelRun } from './hooks';
import type { JobRun } from './types';

/** "Cancel run" while the run is queued or running, after a confirmation. */
export function CancelRunButton() {
  const run = useRecordContext<JobRun>();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'job-runs', action: 'update' });
  const { cancelling, cancel } = useCancelRun(run);
  const [asking, setAsking] = useState(false);
  if (!run || !isLive(run.status) || !canAccess) return null;
  return (
    <>
      <Button color="error" startIcon={<StopCircleIcon />} onClick={() => setAsking(true)} disabled={cancelling} aria-busy={cancelling}>
        {translate('resources.job-runs.cancel.button')}
      </Button>
      <Confirm
        isOpen={asking}
        title={translate('resources.job-runs.cancel.title')}
        content={translate('resources.job-runs.cancel.content')}
        confirm={translate('resources.job-runs.cancel.button')}
        onConfirm={async () => {
          setAsking(false);
          await cancel();
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
