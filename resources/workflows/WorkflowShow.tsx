import { useRecordContext } from 'react-admin';
import { DeclaredShow } from '../../src/framework/show/DeclaredShow';
import { WorkflowRuns } from '../job-runs/WorkflowRuns';
import { CheckWorkflowButton } from './CheckButton';
import { TasksPanel } from './TasksPanel';
import type { Workflow } from './types';

function Runs(_: { label?: false }) {
  const workflow = useRecordContext<Workflow>();
  return workflow ? <WorkflowRuns workflowId={String(workflow.id)} /> : null;
}

/** A workflow's page: its declared details, its tasks in order, and its runs (each leading to its page). */
export default function WorkflowShow() {
  return (
    <DeclaredShow actions={<CheckWorkflowButton />}>
      <TasksPanel label={false} />
      <Runs label={false} />
    </DeclaredShow>
  );
}
