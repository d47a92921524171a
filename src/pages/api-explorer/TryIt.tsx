import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Chip, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { OperationDetail } from '../../../resources/apikeys/types';
import {
  describeSchema,
  exampleOf,
  fillOperationPath,
  formParameters,
  parseJsonBody,
  queryString,
  sendWithKey,
  type TryItResult,
} from './tryIt';
import { Spinner } from '../../framework/Spinner';

export interface TryItProps {
  detail: OperationDetail;
  apiKey: string;
  onApiKeyChange: (key: string) => void;
}

type Outcome = { kind: 'result'; result: TryItResult } | { kind: 'failure'; message: string } | null;

function statusColor(status: number): 'success' | 'warning' | 'error' | 'default' {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 400 && status < 500) return 'warning';
  if (status >= 500) return 'error';
  return 'default';
}

function startingBody(detail: OperationDetail): string {
  if (!detail.body) return '';
  return JSON.stringify(exampleOf(detail.body.schema) ?? {}, null, 2);
}

/**
 * The operation's path and query parameters, a JSON body when it takes one, and the API key;
 * "Send" calls the API with that key alone and shows the status, the time and the answer.
 */
export function TryIt({ detail, apiKey, onApiKeyChange }: TryItProps) {
  const translate = useTranslate();
  const parameters = formParameters(detail);
  const [values, setValues] = useState<Record<string, string>>({});
  const [bodyText, setBodyText] = useState(() => startingBody(detail));
  const [touched, setTouched] = useState(false);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the operation (or the page) abandons a call still under way.
  useEffect(() => () => controller.current?.abort(), []);

  const json = detail.body ? parseJsonBody(bodyText) : null;
  const missing = parameters
    .filter((parameter) => parameter.required && !(values[parameter.name] ?? '').trim())
    .map((parameter) => parameter.name);
  const keyMissing = apiKey.trim() === '';
  const bodyMissing = Boolean(detail.body?.required) && json?.ok === true && json.empty;
  const invalid = missing.length > 0 || keyMissing || json?.ok === false || bodyMissing;

  const send = async () => {
    setTouched(true);
    if (invalid) return;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRunning(true);
    setOutcome(null);
    const path = fillOperationPath(detail.path, values) + queryString(parameters, values);
    const body = json?.ok && !json.empty ? json.value : undefined;
    try {
      const result = await sendWithKey({ method: detail.method, path, apiKey, body }, current.signal);
      if (!current.signal.aborted) setOutcome({ kind: 'result', result });
    } catch (error) {
      if (!current.signal.aborted) setOutcome({ kind: 'failure', message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (!current.signal.aborted) setRunning(false);
    }
  };

  const requiredText = translate('resources.apikeys.explorer.param_required');

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      aria-label={translate('resources.apikeys.explorer.try_it')}
    >
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate('resources.apikeys.explorer.try_note')}
      </Alert>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(220px, 1fr))' } }}>
        {parameters.map((parameter) => {
          const error = touched && missing.includes(parameter.name);
          return (
            <TextField
              key={`${parameter.in}:${parameter.name}`}
              size="small"
              label={`${parameter.name} (${parameter.in})`}
              required={parameter.required}
              value={values[parameter.name] ?? ''}
              onChange={(event) => setValues((current) => ({ ...current, [parameter.name]: event.target.value }))}
              error={error}
              helperText={error ? requiredText : describeSchema(parameter.schema) || ' '}
            />
          );
        })}
      </Box>
      {detail.body && (
        <TextField
          sx={{ mt: 2 }}
          label={translate('resources.apikeys.explorer.json_body')}
          multiline
          minRows={6}
          maxRows={24}
          fullWidth
          value={bodyText}
          onChange={(event) => setBodyText(event.target.value)}
          error={json?.ok === false || (touched && bodyMissing)}
          helperText={
            json?.ok === false
              ? translate('resources.apikeys.explorer.json_invalid', { message: json.message })
              : touched && bodyMissing
                ? requiredText
                : ' '
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: '0.85rem' } } }}
        />
      )}
      <TextField
        sx={{ mt: 2 }}
        label={translate('resources.apikeys.explorer.api_key')}
        type="password"
        autoComplete="off"
        required
        fullWidth
        size="small"
        value={apiKey}
        onChange={(event) => onApiKeyChange(event.target.value)}
        error={touched && keyMissing}
        helperText={
          touched && keyMissing
            ? translate('resources.apikeys.explorer.key_required')
            : translate('resources.apikeys.explorer.api_key_help')
        }
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          startIcon={running ? <Spinner size={16} color="inherit" /> : <SendIcon />}
          disabled={running}
        >
          {translate(running ? 'resources.apikeys.explorer.sending' : 'resources.apikeys.explorer.send')}
        </Button>
      </Box>
      <Box aria-live="polite" sx={{ mt: 2 }}>
        {outcome?.kind === 'failure' && (
          <Alert severity="error">{translate('resources.apikeys.explorer.network_error', { message: outcome.message })}</Alert>
        )}
        {outcome?.kind === 'result' && (
          <Box component="section" aria-label={translate('resources.apikeys.explorer.response')}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
              <Typography variant="subtitle2" component="h4">
                {translate('resources.apikeys.explorer.response')}
              </Typography>
              <Chip
                size="small"
                color={statusColor(outcome.result.status)}
                label={`${translate('resources.apikeys.explorer.status', { status: outcome.result.status })}${outcome.result.statusText ? ` ${outcome.result.statusText}` : ''}`}
              />
              <Typography variant="body2" color="text.secondary">
                {translate('resources.apikeys.explorer.time', { ms: outcome.result.ms })}
              </Typography>
            </Box>
            <Box
              component="pre"
              data-testid="try-it-answer"
              sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.8rem', overflow: 'auto', maxHeight: 480 }}
            >
              {outcome.result.text || translate('resources.apikeys.explorer.empty_answer')}
            </Box>
          </Box>
        )}
      </Box>
    </Box>
  );
}
