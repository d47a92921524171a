import FactCheckIcon from '@mui/icons-material/FactCheckOutlined';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { useWorkflowCheck, type CheckState } from './hooks';
import type { Workflow, WorkflowCheck } from './types';
import { Spinner } from '../../src/framework/Spinner';

interface ProblemGroup {
  key: string;
  title: string;
  messages: string[];
}

/** The problems per task, in the workflow's task order; those of the workflow as a whole first. */
export function problemGroups(workflow: Pick<Workflow, 'tasks'>, check: WorkflowCheck, wholeTitle: string): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  const tasks = workflow.tasks ?? [];
  const titleOf = (task: string | null) => {
    if (!task) return wholeTitle;
    const found = tasks.find((candidate) => candidate.id === task || candidate.name === task);
    return found ? found.name : task;
  };
  const order = (key: string) => {
    if (key === '') return -1;
    const index = tasks.findIndex((candidate) => candidate.id === key || candidate.name === key);
    return index === -1 ? tasks.length : index;
  };
  for (const problem of check.problems) {
    const key = problem.task ?? '';
    const group = groups.get(key) ?? { key, title: titleOf(problem.task), messages: [] };
    group.messages.push(problem.message);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => order(a.key) - order(b.key));
}

function CheckBody({ state, workflow }: { state: CheckState; workflow: Workflow }) {
  const translate = useTranslate();
  if (state.state === 'checking') {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Spinner size={18} />
        {translate('resources.workflows.check.checking')}
      </Box>
    );
  }
  if (state.state === 'failed') return <Alert severity="error">{state.message}</Alert>;
  if (state.state !== 'done') return null;
  if (state.result.ok || state.result.problems.length === 0)
    return <Alert severity="success">{translate('resources.workflows.check.ok')}</Alert>;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="error">{translate('resources.workflows.check.problems', { smart_count: state.result.problems.length })}</Alert>
      {problemGroups(workflow, state.result, translate('resources.workflows.check.whole')).map((group) => (
        <Box component="section" key={group.key} aria-label={group.title} data-problems-of={group.key}>
          <Typography variant="subtitle2" component="h3">
            {group.title}
          </Typography>
          <List dense disablePadding>
            {group.messages.map((message, index) => (
              <ListItem key={index} disableGutters>
                <ListItemText primary={message} />
              </ListItem>
            ))}
          </List>
        </Box>
      ))}
    </Box>
  );
}

/**
 * "Check" on a workflow's page and form: asks the server whether the pair's connections answer
 * and the tables and files its tasks name exist, without running it, and lists the problems
 * per task.
 */
export function CheckWorkflowButton() {
  const workflow = useRecordContext<Workflow>();
  const translate = useTranslate();
  // `update` (what running and checking need): react-admin's own check of the edit page is the
  // `edit` query, and sharing it from the page's toolbar left the page loading on a later visit.
  const { canAccess } = useCanAccess({ resource: 'workflows', action: 'update' });
  const check = useWorkflowCheck(workflow ? String(workflow.id) : undefined);
  if (!workflow || !canAccess) return null;
  const open = check.state.state !== 'idle';
  const title = translate('resources.workflows.check.title', { name: workflow.name });
  return (
    <>
      <Button size="small" startIcon={<FactCheckIcon />} onClick={() => void check.run()} disabled={check.state.state === 'checking'}>
        {translate('resources.workflows.check.button')}
      </Button>
      <Dialog open={open} onClose={check.close} aria-labelledby="workflow-check-title" maxWidth="sm" fullWidth>
        <DialogTitle id="workflow-check-title">{title}</DialogTitle>
        <DialogContent>
          <CheckBody state={check.state} workflow={workflow} />
        </DialogContent>
        <DialogActions>
          <Button onClick={check.close}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
