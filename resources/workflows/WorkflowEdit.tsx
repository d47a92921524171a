import { Edit, ShowButton, TopToolbar, useRecordContext } from 'react-admin';
import { CheckWorkflowButton } from './CheckButton';
import { RunWorkflowButton } from './RunButton';
import type { Workflow } from './types';
import { WorkflowForm } from './WorkflowForm';

function EditBody() {
  const record = useRecordContext<Workflow>();
  return record ? <WorkflowForm mode="edit" record={record} /> : null;
}

/** A workflow's edit: the update sends what changed; Run and Check act on the stored workflow. */
export default function WorkflowEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <RunWorkflowButton />
          <CheckWorkflowButton />
          <ShowButton />
        </TopToolbar>
      }
    >
      <EditBody />
    </Edit>
  );
}
