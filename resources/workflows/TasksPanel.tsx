import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { WorkflowTask } from '../../common/schemas/workflows';
import { useTableChoices } from './api';
import type { TableChoice, Workflow } from './types';

type Translate = ReturnType<typeof useTranslate>;

/** What a task does, in one line. */
export function taskSummary(task: WorkflowTask, translate: Translate, tables: readonly TableChoice[]): string {
  const key = (name: string) => `resources.workflows.summaries.${name}`;
  switch (task.type) {
    case 'copy':
      return translate(key('copy'), {
        from: 'table' in task.from ? task.from.table : translate(key('query')),
        to: task.to.table,
        mode: translate(`resources.workflows.modes.${task.to.mode}`),
      });
    case 'sql':
      return translate(key('sql'), {
        path: task.path,
        ref: task.ref || translate(key('default_branch')),
        target: translate(`resources.workflows.targets.${task.target ?? 'destination'}`),
      });
    case 'quality':
      return task.tableIds.map((id) => tables.find((table) => table.id === id)?.name ?? id).join(', ');
    case 'notify': {
      const where = [task.slackConnectionId ? translate(key('slack')) : null, ...(task.emails ?? [])].filter(Boolean).join(', ');
      return where ? `${task.message} → ${where}` : task.message;
    }
    default:
      return '';
  }
}

/** The workflow's tasks, in the order they run. */
export function TasksPanel(_: { label?: false }) {
  const workflow = useRecordContext<Workflow>();
  const translate = useTranslate();
  const tasks = workflow?.tasks ?? [];
  const tables = useTableChoices(tasks.some((task) => task.type === 'quality'));
  if (!workflow) return null;
  const title = translate('resources.workflows.tasks.title');
  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {tasks.length === 0 ? (
        <Typography variant="body2">{translate('resources.workflows.tasks.empty')}</Typography>
      ) : (
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>{translate('resources.workflows.tasks.name')}</TableCell>
              <TableCell>{translate('resources.workflows.tasks.type')}</TableCell>
              <TableCell>{translate('resources.workflows.tasks.what')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tasks.map((task, index) => (
              <TableRow key={task.id} data-task={task.id}>
                <TableCell>{index + 1}</TableCell>
                <TableCell>{task.name}</TableCell>
                <TableCell>{translate(`resources.workflows.task_types.${task.type}`, { _: task.type })}</TableCell>
                <TableCell sx={{ fontFamily: task.type === 'notify' ? undefined : 'monospace' }}>
                  {taskSummary(task, translate, tables.data ?? [])}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
