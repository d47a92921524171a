import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Button, Card, CardContent, IconButton, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { TASK_TYPES, TASKS_MAX, type TaskType } from '../../common/schemas/workflows';
import { newTask, type TaskFormValues } from './form';
import { FormSection } from './FormParts';
import { TaskTypeInputs } from './TaskInputs';

interface TaskEditorProps {
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}

function IconAction({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const button = (
    <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled}>
      {children}
    </IconButton>
  );
  // A disabled button gives the tooltip no events: it is shown bare.
  return disabled ? button : <Tooltip title={label}>{button}</Tooltip>;
}

/** One task: its name and type, moved up or down or removed, and its type's inputs. */
function TaskEditor({ index, count, onMove, onRemove }: TaskEditorProps) {
  const translate = useTranslate();
  const type = useWatch({ name: `tasks.${index}.type` }) as TaskType;
  const position = index + 1;
  const title = translate('resources.workflows.tasks.task_n', { position });
  return (
    <Card component="li" variant="outlined" aria-label={title} data-task-index={index}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <IconAction
            label={translate('resources.workflows.tasks.move_up', { position })}
            onClick={() => onMove(index, index - 1)}
            disabled={index === 0}
          >
            <ArrowUpwardIcon fontSize="small" />
          </IconAction>
          <IconAction
            label={translate('resources.workflows.tasks.move_down', { position })}
            onClick={() => onMove(index, index + 1)}
            disabled={index === count - 1}
          >
            <ArrowDownwardIcon fontSize="small" />
          </IconAction>
          <IconAction label={translate('resources.workflows.tasks.remove', { position })} onClick={() => onRemove(index)}>
            <DeleteIcon fontSize="small" />
          </IconAction>
        </Box>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
          <TextInput
            source={`tasks.${index}.name`}
            label="resources.workflows.tasks.name"
            isRequired
            helperText={false}
            sx={{ flex: 1, minWidth: 240 }}
          />
          <SelectInput
            source={`tasks.${index}.type`}
            label="resources.workflows.tasks.type"
            choices={TASK_TYPES.map((candidate) => ({ id: candidate, name: translate(`resources.workflows.task_types.${candidate}`) }))}
            isRequired
            helperText={false}
            sx={{ minWidth: 200 }}
          />
        </Box>
        <TaskTypeInputs index={index} type={type} />
      </CardContent>
    </Card>
  );
}

/**
 * The workflow's tasks, run in order: add one of a type, reorder, remove; each task's inputs are
 * its type's. A problem of the list as a whole (none, too many) shows under it.
 */
export function TaskListEditor() {
  const translate = useTranslate();
  const { getValues } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ name: 'tasks', keyName: 'key' });
  const { errors } = useFormState({ name: 'tasks' });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const listErrors = errors.tasks as { message?: string; root?: { message?: string } } | undefined;
  const problem = listErrors?.root?.message ?? listErrors?.message;
  const add = (type: TaskType) => {
    setMenu(null);
    append(newTask(type, (getValues('tasks') as TaskFormValues[] | undefined) ?? []));
  };
  return (
    <FormSection title="resources.workflows.tasks.title">
      {fields.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('resources.workflows.tasks.empty')}
        </Typography>
      )}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mb: 1, display: 'grid', gap: 2 }}>
        {fields.map((field, index) => (
          <TaskEditor key={field.key} index={index} count={fields.length} onMove={move} onRemove={remove} />
        ))}
      </Box>
      {problem && (
        <Typography role="alert" color="error" variant="body2" sx={{ mb: 1 }}>
          {translate(problem, { _: problem })}
        </Typography>
      )}
      <Button
        startIcon={<AddIcon />}
        onClick={(event) => setMenu(event.currentTarget)}
        disabled={fields.length >= TASKS_MAX}
        aria-haspopup="menu"
        aria-expanded={Boolean(menu)}
      >
        {translate('resources.workflows.tasks.add')}
      </Button>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {TASK_TYPES.map((type) => (
          <MenuItem key={type} onClick={() => add(type)}>
            {translate(`resources.workflows.task_types.${type}`)}
          </MenuItem>
        ))}
      </Menu>
    </FormSection>
  );
}
