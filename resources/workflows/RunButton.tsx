import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Button } from '@mui/material';
import { Confirm, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { stopRowClick } from '../../src/framework/feedback';
import { useState } from 'react';
import { incrementalCopies, useRunWorkflow } from './hooks';
import type { Workflow } from './types';
import { Spinner } from '../../src/framework/Spinner';

/**
 * "Run" for the workflow in context (a row of the list, its page, its form): queues a run and
 * opens it; asks first when an append copy would add to a table that already holds rows.
 */
export function RunWorkflowButton() {
  const workflow = useRecordContext<Workflow>();
  const translate = useTranslate();
  // `update` (what running and checking need): react-admin's own check of the edit page is the
  // `edit` query, and sharing it from the page's toolbar left the page loading on a later visit.
  const { canAccess } = useCanAccess({ resource: 'workflows', action: 'update' });
  const { running, run, warning, confirm, dismiss, runFullCopy } = useRunWorkflow(workflow);
  const [askingFullCopy, setAskingFullCopy] = useState(false);
  if (!workflow || !canAccess) return null;
  const rows = warning ? warning.rows.toLocaleString() : '';
  const incremental = incrementalCopies(workflow);
  return (
    <>
      <Button
        size="small"
        startIcon={running ? <Spinner size={14} color="inherit" /> : <PlayArrowIcon />}
        onClick={(event) => {
          stopRowClick(event);
          void run();
        }}
        disabled={running}
        aria-busy={running}
        aria-label={translate('resources.workflows.run.button_of', { name: workflow.name })}
      >
        {translate('resources.workflows.run.button')}
      </Button>
      {incremental.names.length > 0 && (
        <Button
          size="small"
          onClick={(event) => {
            stopRowClick(event);
            setAskingFullCopy(true);
          }}
          disabled={running}
          aria-label={translate('resources.workflows.run.full_copy_of', { name: workflow.name })}
        >
          {translate('resources.workflows.run.full_copy')}
        </Button>
      )}
      {/* Clicks in the dialog would reach a list row through the React tree: they stop here. */}
      <span onClick={stopRowClick}>
        <Confirm
          isOpen={Boolean(warning)}
          title={translate('resources.workflows.run.append_title')}
          content={translate('resources.workflows.run.append_rows', {
            table: warning?.table ?? '',
            rows: warning?.more ? translate('resources.workflows.run.append_more', { rows }) : rows,
          })}
          confirm="resources.workflows.run.anyway"
          confirmColor="warning"
          onConfirm={() => void confirm()}
          onClose={dismiss}
        />
        <Confirm
          isOpen={askingFullCopy}
          title={translate('resources.workflows.run.full_copy_title', { name: workflow.name })}
          content={[
            translate('resources.workflows.run.full_copy_content', { names: incremental.names.join(', ') }),
            incremental.appending.length > 0
              ? translate('resources.workflows.run.full_copy_appends', { names: incremental.appending.join(', ') })
              : '',
          ]
            .filter(Boolean)
            .join(' ')}
          confirm="resources.workflows.run.full_copy_confirm"
          confirmColor={incremental.appending.length > 0 ? 'warning' : 'primary'}
          onConfirm={() => {
            setAskingFullCopy(false);
            void runFullCopy();
          }}
          onClose={() => setAskingFullCopy(false)}
        />
      </span>
    </>
  );
}
