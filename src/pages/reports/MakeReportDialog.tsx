import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import {
  DEFAULT_REPORT_DAYS,
  DEFAULT_REPORT_FORMAT,
  REPORT_FORMATS,
  type MakeReportBody,
  type ReportFormat,
} from '../../../common/schemas/reports';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../../framework/feedback';
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
  const text = (key: string, options?: Record<string, unknown>) => translate(`resources.reports.make.${key}`, options);
  const [format, setFormat] = useState<ReportFormat>(DEFAULT_REPORT_FORMAT);
  const [period, setPeriod] = useState<PeriodChoice>('recent');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [recipients, setRecipients] = useState<ActiveUser[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [making, setMaking] = useState(false);

  useEffect(() => {
    if (!open) return;
    setProblem(null);
    setMaking(false);
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const request = reportRequest({ format, period, from, to, recipients: recipients.map((user) => user.id) });
    if ('problem' in request) {
      setProblem(text(request.problem));
      return;
    }
    setMaking(true);
    setProblem(null);
    try {
      const made = await makeReport(request.body);
      alerts.success(made.message ?? text('done'));
      onMade(made.data);
      setRecipients([]);
      onClose();
    } catch (error) {
      setProblem(failureText(error));
    } finally {
      setMaking(false);
    }
  };

  return (
    <Dialog open={open} onClose={making ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="make-report-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="make-report-title">{text('title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {problem && <Alert severity="error">{problem}</Alert>}
            <FormControl>
              <FormLabel id="report-format">{text('format')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="report-format"
                value={format}
                onChange={(event) => setFormat(event.target.value as ReportFormat)}
              >
                {REPORT_FORMATS.map((choice) => (
                  <FormControlLabel key={choice} value={choice} control={<Radio />} label={text(choice)} />
                ))}
              </RadioGroup>
            </FormControl>
            <FormControl>
              <FormLabel id="report-period">{text('period')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="report-period"
                value={period}
                onChange={(event) => setPeriod(event.target.value as PeriodChoice)}
              >
                <FormControlLabel value="recent" control={<Radio />} label={text('recent', { days: DEFAULT_REPORT_DAYS })} />
                <FormControlLabel value="days" control={<Radio />} label={text('days')} />
              </RadioGroup>
            </FormControl>
            {period === 'days' && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  type="date"
                  label={text('from')}
                  value={from}
                  onChange={(event) => setFrom(event.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
                <TextField
                  type="date"
                  label={text('to')}
                  value={to}
                  onChange={(event) => setTo(event.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                  helperText={text('days_help')}
                />
              </Stack>
            )}
            <ActiveUsersInput
              enabled={open}
              value={recipients}
              onChange={setRecipients}
              label={text('recipients')}
              helperText={text('recipients_help')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={making}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={making} aria-busy={making}>
            {text(making ? 'making' : 'submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
