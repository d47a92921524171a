import { Alert, Box, Button } from '@mui/material';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { AutocompleteInput, SelectInput, useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { useFailureAlert } from '../tables/hooks';
import { useGitRepository } from './api';

const SQL_FILE = /\.sql$/i;

/**
 * A SQL task's file, picked from the workflow's repository (`GET /workflow/connection/gitRepo/
 * {id}?ref=`): a branch (the default one when none is chosen) and one of the .sql files at it.
 * The commit the branch is at shows under the file; the run keeps the commit it ran.
 */
export function RepositoryFilePicker({ index }: { index: number }) {
  const translate = useTranslate();
  const repositoryId = useWatch({ name: 'repositoryConnectionId' }) as string | null;
  const ref = useWatch({ name: `tasks.${index}.ref` }) as string | null;
  const path = useWatch({ name: `tasks.${index}.path` }) as string | null;
  const repository = useGitRepository(repositoryId, ref);
  useFailureAlert(repository.error);
  const data = repository.data;

  const branches = useMemo(() => {
    const names = (data?.branches ?? []).map((branch) => ({ id: branch.name, name: branch.name }));
    // A ref that is no branch (a tag, a commit) stays choosable as it is.
    return ref && !names.some((branch) => branch.id === ref) ? [...names, { id: ref, name: ref }] : names;
  }, [data, ref]);
  const files = useMemo(() => {
    const sql = (data?.files ?? []).filter((file) => SQL_FILE.test(file)).map((file) => ({ id: file, name: file }));
    return path && !sql.some((file) => file.id === path) ? [{ id: path, name: path }, ...sql] : sql;
  }, [data, path]);

  if (!repositoryId) {
    return (
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate('resources.workflows.sql.choose_repository')}
      </Alert>
    );
  }
  if (repository.isError) {
    return (
      <Alert
        severity="error"
        sx={{ mb: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void repository.refetch()} disabled={repository.isFetching}>
            {translate('resources.workflows.sql.retry')}
          </Button>
        }
      >
        {failureText(repository.error)}
      </Alert>
    );
  }
  const defaultBranch = data?.defaultBranch ?? '';
  const commit = data?.commit ? data.commit.slice(0, 12) : null;
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
      <SelectInput
        source={`tasks.${index}.ref`}
        label="resources.workflows.sql.branch"
        choices={branches}
        translateChoice={false}
        isPending={repository.isPending}
        emptyText={translate('resources.workflows.sql.default_branch', { name: defaultBranch })}
        helperText={false}
        sx={{ minWidth: 200, flex: '0 0 auto' }}
      />
      <AutocompleteInput
        source={`tasks.${index}.path`}
        label="resources.workflows.sql.path"
        choices={files}
        translateChoice={false}
        isPending={repository.isFetching}
        isRequired
        helperText={
          commit
            ? translate('resources.workflows.sql.at_commit', { commit, ref: data?.ref ?? defaultBranch })
            : 'resources.workflows.sql.path_help'
        }
        sx={{ minWidth: 280, flex: 1 }}
      />
    </Box>
  );
}
