import { Box } from '@mui/material';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { BooleanInput, NumberInput, RadioButtonGroupInput, TextInput, useTranslate } from 'react-admin';
import { CheckedForm } from '../../src/framework/form/CheckedForm';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { FieldInput } from '../../src/framework/FieldInput';
import { ChipsInput } from '../../src/framework/form/ChipsInput';
import { formValuesOf, newWorkflowValues, workflowResolver } from './form';
import { ConnectionSelect, FormSection } from './FormParts';
import { useWorkflowSave } from './hooks';
import { ScheduleInputs } from './ScheduleInputs';
import { ADDRESS_SEPARATOR } from './TaskInputs';
import { TaskListEditor } from './TaskListEditor';
import type { Workflow } from './types';

const text = (key: string) => `resources.workflows.form.${key}`;

function EngineInputs() {
  const translate = useTranslate();
  const engine = useWatch({ name: 'engine' }) as string;
  return (
    <FormSection title={text('engine')}>
      <RadioButtonGroupInput
        source="engine"
        label={text('runs_on')}
        row
        helperText={false}
        choices={[
          { id: 'local', name: translate('resources.workflows.engines.local') },
          { id: 'databricks', name: translate('resources.workflows.engines.databricks') },
        ]}
      />
      {engine === 'databricks' && (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
          <Box sx={{ flex: 1, minWidth: 240 }}>
            <ConnectionSelect
              source="databricksConnectionId"
              label="resources.workflows.fields.databricksConnectionId"
              types={['databricks']}
              isRequired
            />
          </Box>
          <TextInput
            source="databricksJobId"
            label="resources.workflows.fields.databricksJobId"
            helperText={text('job_id_help')}
            sx={{ minWidth: 200 }}
          />
        </Box>
      )}
    </FormSection>
  );
}

function LimitInputs() {
  return (
    <FormSection title={text('limits')}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <NumberInput source="retries.max" label={text('retries')} helperText={text('retries_help')} min={0} max={10} step={1} />
        <NumberInput
          source="retries.backoffSeconds"
          label={text('backoff')}
          helperText={text('backoff_help')}
          min={10}
          max={3600}
          step={10}
        />
        <NumberInput source="timeoutMinutes" label={text('timeout')} helperText={text('timeout_help')} min={1} max={1440} step={1} />
        <NumberInput source="concurrency" label={text('concurrency')} helperText={text('concurrency_help')} min={1} max={10} step={1} />
      </Box>
    </FormSection>
  );
}

function NoticeInputs() {
  return (
    <FormSection title={text('notices')}>
      <BooleanInput source="notifyOnFailure.inApp" label={text('in_app')} helperText={false} />
      <ConnectionSelect source="notifyOnFailure.slackConnectionId" label={text('slack')} types={['slack']} />
      <ChipsInput
        source="notifyOnFailure.emails"
        label={text('emails')}
        helperText="resources.workflows.tasks.emails_help"
        max={50}
        separator={ADDRESS_SEPARATOR}
      />
    </FormSection>
  );
}

export interface WorkflowFormProps {
  mode: 'create' | 'edit';
  /** The stored workflow an edit starts from. */
  record?: Workflow;
}

/**
 * A workflow's form: what it is (name, description, workspace, pair), where it runs (the local
 * runner or a Databricks job), its repository, its tasks, its schedule, its limits and who hears
 * of a failure. The body is checked by the shared schema before anything is sent; a server 400
 * naming a field shows on its input too.
 */
export function WorkflowForm({ mode, record }: WorkflowFormProps) {
  const declaration = useDeclaration();
  const initial = useMemo(() => (record ? formValuesOf(record) : newWorkflowValues()), [record]);
  const resolver = useMemo(() => workflowResolver(mode), [mode]);
  const save = useWorkflowSave(mode, record);
  const field = (source: string) => declaration.fields.find((candidate) => candidate.source === source)!;
  return (
    // noValidate: the shared schema is the one judge, with its own messages.
    <CheckedForm record={initial} resolver={resolver} onSubmit={save}>
      <FormSection title={text('general')}>
        <TextInput source="name" label="resources.workflows.fields.name" isRequired helperText={false} />
        <TextInput source="description" label="resources.workflows.fields.description" multiline minRows={2} helperText={false} />
        <FieldInput field={field('workspaceId')} resource={declaration.name} />
        <FieldInput field={field('pairId')} resource={declaration.name} />
      </FormSection>
      <EngineInputs />
      <FormSection title={text('repository')}>
        <ConnectionSelect
          source="repositoryConnectionId"
          label="resources.workflows.fields.repositoryConnectionId"
          types={['git', 'bitbucket']}
          helperText={text('repository_help')}
        />
      </FormSection>
      <TaskListEditor />
      <ScheduleInputs />
      <LimitInputs />
      <NoticeInputs />
    </CheckedForm>
  );
}
