import { Box, Typography } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { SelectInput, useTranslate } from 'react-admin';
import type { ConnectionType } from '../../common/connections';
import { failureText } from '../../src/framework/feedback';
import { useConnectionChoices } from '../connections/api';

/** A titled part of the workflow form, a region of its own. */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  const text = translate(title);
  return (
    <Box component="section" aria-label={text} sx={{ width: '100%', mb: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {text}
      </Typography>
      {children}
    </Box>
  );
}

export interface ConnectionSelectProps {
  source: string;
  label: string;
  /** The connection types it offers (Databricks, git and Bitbucket, Slack). */
  types: readonly ConnectionType[];
  helperText?: string;
  isRequired?: boolean;
}

/** One of the company's connections of some types (from the connections list), or none. */
export function ConnectionSelect({ source, label, types, helperText, isRequired }: ConnectionSelectProps) {
  const translate = useTranslate();
  const connections = useConnectionChoices();
  const choices = useMemo(
    () =>
      (connections.data ?? [])
        .filter((connection) => types.includes(connection.type))
        .map((connection) => ({
          id: connection.id,
          name: connection.isActive ? connection.name : `${connection.name} (${translate('resources.workflows.form.inactive')})`,
        })),
    [connections.data, types, translate],
  );
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      translateChoice={false}
      isPending={connections.isPending}
      isRequired={isRequired}
      emptyText="resources.workflows.form.none"
      helperText={connections.isError ? failureText(connections.error) : (helperText ?? false)}
    />
  );
}
