import type { ReactNode } from 'react';
import { Alert, Box, Chip, Paper, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useOperation } from '../../../resources/apikeys/api';
import { MethodChip } from '../../../resources/apikeys/MethodChip';
import type { OperationDetail } from '../../../resources/apikeys/types';
import { failureText } from '../../framework/feedback';
import { describeSchema } from './tryIt';
import { TryIt } from './TryIt';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" aria-label={translate(title)} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

function Parameters({ detail }: { detail: OperationDetail }) {
  const translate = useTranslate();
  if (detail.parameters.length === 0)
    return <Typography variant="body2">{translate('resources.apikeys.explorer.no_parameters')}</Typography>;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.apikeys.explorer.parameter')}</TableCell>
          <TableCell>{translate('resources.apikeys.explorer.where')}</TableCell>
          <TableCell>{translate('resources.apikeys.explorer.type')}</TableCell>
          <TableCell>{translate('resources.apikeys.explorer.required')}</TableCell>
          <TableCell>{translate('resources.apikeys.explorer.description')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {detail.parameters.map((parameter) => (
          <TableRow key={`${parameter.in}:${parameter.name}`}>
            <TableCell sx={{ fontFamily: 'monospace' }}>{parameter.name}</TableCell>
            <TableCell>{parameter.in}</TableCell>
            <TableCell>{describeSchema(parameter.schema)}</TableCell>
            <TableCell>{parameter.required ? '✓' : ''}</TableCell>
            <TableCell>{parameter.description ?? ''}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function SchemaBlock({ schema, label }: { schema: unknown; label: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.8rem', overflow: 'auto', maxHeight: 360 }}
    >
      {JSON.stringify(schema, null, 2)}
    </Box>
  );
}

function Body({ detail }: { detail: OperationDetail }) {
  const translate = useTranslate();
  if (!detail.body) return <Typography variant="body2">{translate('resources.apikeys.explorer.no_body')}</Typography>;
  const types = detail.body.contentTypes.join(', ');
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate(detail.body.required ? 'resources.apikeys.explorer.body_required' : 'resources.apikeys.explorer.body_optional', {
          types,
        })}
      </Typography>
      <SchemaBlock schema={detail.body.schema} label={translate('resources.apikeys.explorer.schema')} />
    </>
  );
}

export interface OperationViewProps {
  id: string;
  apiKey: string;
  onApiKeyChange: (key: string) => void;
}

/** One operation (`GET /openapi/{id}`): what it takes, and a form to try it with a key. */
export function OperationView({ id, apiKey, onApiKeyChange }: OperationViewProps) {
  const translate = useTranslate();
  const operation = useOperation(id);
  if (operation.isPending)
    return <Skeleton variant="rectangular" height={240} role="progressbar" aria-label={translate('resources.apikeys.explorer.loading')} />;
  if (operation.isError) {
    return <Alert severity="error">{translate('resources.apikeys.explorer.load_error', { message: failureText(operation.error) })}</Alert>;
  }
  const detail = operation.data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="article" aria-labelledby="operation-title">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <MethodChip method={detail.method} />
        <Typography component="code" sx={{ fontFamily: 'monospace', fontSize: '1rem', wordBreak: 'break-all' }}>
          {detail.path}
        </Typography>
        <Chip size="small" variant="outlined" label={detail.tag} />
      </Box>
      <Typography id="operation-title" variant="h5" component="h2" sx={{ mt: 1 }}>
        {detail.summary}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ fontFamily: 'monospace' }}>
        {detail.id}
      </Typography>
      {detail.description && (
        <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
          {detail.description}
        </Typography>
      )}
      <Section title="resources.apikeys.explorer.parameters">
        <Parameters detail={detail} />
      </Section>
      <Section title="resources.apikeys.explorer.body">
        <Body detail={detail} />
      </Section>
      <Section title="resources.apikeys.explorer.try_it">
        {/* A fresh form per operation; the key stays across them. */}
        <TryIt key={detail.id} detail={detail} apiKey={apiKey} onApiKeyChange={onApiKeyChange} />
      </Section>
    </Paper>
  );
}
