import { FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, TextField } from '@mui/material';
import { useCallback, useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { useController, type FieldValues, type Resolver } from 'react-hook-form';
import {
  DEFAULT_REPORT_DAYS,
  DEFAULT_REPORT_FORMAT,
  REPORT_FORMATS,
  type MakeReportBody,
  type ReportFormat,
} from '../../../common/schemas/reports';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../../framework/feedback';
import { FormDialog } from '../../framework/form/FormDialog';
import { ActiveUsersInput } from '../../framework/share/ActiveUsersInput';
import type { ActiveUser } from '../../framework/share/shares';
import { makeReport, type ReportDetail } from './api';

type PeriodChoice = 'recent' | 'days';

/** The body the dialog's choices make, or the problem to show instead. */
export function reportRequest(input: {
  format: ReportFormat;
  period: PeriodChoice;
  from: string;
  to: string;
  recipients: string[];
}): { body: MakeReportBody } | { problem: 'from_required' | 'to_required' | 'order' } {
  const body: MakeReportBody = { format: input.format };
  if (input.recipients.length > 0) body.recipients = input.recipients;
  if (input.period === 'days') {
    if (!input.from) return { problem: 'from_required' };
    if (!input.to) return { problem: 'to_required' };
    // YYYY-MM-DD texts sort as the days do.
    if (input.to < input.from) return { problem: 'order' };
    body.periodStart = input.from;
    body.periodEnd = input.to;
  }
  return { body };
}

interface ReportValues {
  format: ReportFormat;
  period: PeriodChoice;
  from: string;
  to: string;
  recipients: ActiveUser[];
}

const NEW_REPORT: ReportValues = { format: DEFAULT_REPORT_FORMAT, period: 'recent', from: '', to: '', recipients: [] };

/** The inputs a refusal may name (the server's names are the body's: its message is the form's problem). */
const REPORT_FIELDS = Object.keys(NEW_REPORT);

/** Where each problem of the chosen days is shown. */
const PROBLEM_FIELD = { from_required: 'from', to_required: 'to', order: 'to' } as const;

function ReportInputs({ enabled, text }: { enabled: boolean; text: (key: string, options?: Record<string, unknown>) => string }) {
  const { field: format } = useController<ReportValues, 'format'>({ name: 'format' });
  const { field: period } = useController<ReportValues, 'period'>({ name: 'period' });
  const { field: from, fieldState: fromState } = useController<ReportValues, 'from'>({ name: 'from' });
  const { field: to, fieldState: toState } = useController<ReportValues, 'to'>({ name: 'to' });
  const { field: recipients } = useController<ReportValues, 'recipients'>({ name: 'recipients' });
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <FormControl>
        <FormLabel id="report-format">{text('format')}</FormLabel>
        <RadioGroup row aria-labelledby="report-format" value={format.value} onChange={(event) => format.onChange(event.target.value)}>
          {REPORT_FORMATS.map((choice) => (
            <FormControlLabel key={choice} value={choice} control={<Radio />} label={text(choice)} />
          ))}
        </RadioGroup>
      </FormControl>
      <FormControl>
        <FormLabel id="report-period">{text('period')}</FormLabel>
        <RadioGroup row aria-labelledby="report-period" value={period.value} onChange={(event) => period.onChange(event.target.value)}>
          <FormControlLabel value="recent" control={<Radio />} label={text('recent', { days: DEFAULT_REPORT_DAYS })} />
          <FormControlLabel value="days" control={<Radio />} label={text('days')} />
        </RadioGroup>
      </FormControl>
      {period.value === 'days' && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            type="date"
            label={text('from')}
            value={from.value}
            onChange={(event) => from.onChange(event.target.value)}
            error={Boolean(fromState.error)}
            helperText={fromState.error?.message}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="date"
            label={text('to')}
            value={to.value}
            onChange={(event) => to.onChange(event.target.value)}
            error={Boolean(toState.error)}
            helperText={toState.error?.message ?? text('days_help')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
      )}
      <ActiveUsersInput
        enabled={enabled}
        value={recipients.value}
        onChange={recipients.onChange}
        label={text('recipients')}
        helperText={text('recipients_help')}
      />
    </Stack>
  );
}

/** "Make a report now": its format, its period (the last 7 days or chosen days) and who else gets it. */
export function MakeReportDialog({
  open,
  onClose,
  onMade,
}: {
  open: boolean;
  onClose: () => void;
  onMade: (report: ReportDetail) => void;
}) {
  const translate = useTranslate();
  const text = useCallback(
    (key: string, options?: Record<string, unknown>) => translate(`resources.reports.make.${key}`, options),
    [translate],
  );
  // The choices make the body; a problem with the chosen days shows on the day it is about.
  const resolver = useMemo<Resolver<FieldValues>>(
    () => async (values) => {
      const { recipients, ...choices } = values as ReportValues;
      const request = reportRequest({ ...choices, recipients: recipients.map((user) => user.id) });
      if ('problem' in request) {
        return { values: {}, errors: { [PROBLEM_FIELD[request.problem]]: { type: 'custom', message: text(request.problem) } } };
      }
      return { values: request.body, errors: {} };
    },
    [text],
  );

  const submit = async (body: MakeReportBody) => {
    try {
      const made = await makeReport(body);
      alerts.success(made.message ?? text('done'));
      onMade(made.data);
      return null;
    } catch (error) {
      return failureText(error);
    }
  };

  return (
    <FormDialog
      open={open}
      title={text('title')}
      defaultValues={NEW_REPORT}
      resolver={resolver}
      onSubmit={submit}
      onClose={onClose}
      problemFields={REPORT_FIELDS}
      saveLabel="resources.reports.make.submit"
      savingLabel="resources.reports.make.making"
    >
      <ReportInputs enabled={open} text={text} />
    </FormDialog>
  );
}
