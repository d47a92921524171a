import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Collapse,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { CoverageChips, failedRowsText, formatObserved, formatShare, formatWhen, RunStatusChip } from './cells';
import { FailingRows } from './FailingRows';
import type { QualityRun, RuleResult } from './types';

/** What a result's first cell shows: the rule's name, and under it the column it checks. */
export function RuleName({ ruleName, columnName }: { ruleName: string; columnName?: string | null }) {
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {ruleName}
      </Typography>
      {columnName && (
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {columnName}
        </Typography>
      )}
    </>
  );
}

function ResultDetails({ runId, result }: { runId: string; result: RuleResult }) {
  const translate = useTranslate();
  const [showSql, setShowSql] = useState(false);
  const sqlId = `run-sql-${result.ruleId}`;
  return (
    <Box sx={{ display: 'grid', gap: 1, py: 1 }}>
      {result.message && (
        <Alert severity={result.status === 'error' ? 'error' : 'info'} sx={{ py: 0 }}>
          {result.message}
        </Alert>
      )}
      {result.advice && (
        <Alert severity="warning" sx={{ py: 0 }} data-advice>
          <AlertTitle sx={{ fontSize: '0.875rem' }}>{translate('resources.tables.quality.advice')}</AlertTitle>
          <Box component="span" sx={{ wordBreak: 'break-word' }}>
            {result.advice}
          </Box>
        </Alert>
      )}
      {result.query && (
        <Box>
          <Button
            size="small"
            onClick={() => setShowSql((shown) => !shown)}
            aria-expanded={showSql}
            aria-controls={sqlId}
            endIcon={showSql ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          >
            {translate(showSql ? 'resources.tables.quality.hide_sql' : 'resources.tables.quality.show_sql')}
          </Button>
          <Collapse in={showSql} unmountOnExit>
            <Box
              component="pre"
              id={sqlId}
              sx={{ m: 0, p: 1, bgcolor: 'action.hover', fontFamily: 'monospace', fontSize: '0.8rem', whiteSpace: 'pre-wrap' }}
            >
              {result.query}
            </Box>
          </Collapse>
        </Box>
      )}
      {(result.sample?.length ?? 0) > 0 && <FailingRows runId={runId} result={result} />}
    </Box>
  );
}

/** What a "Run checks now" measured: the run's status, and per rule its result, SQL and failing rows. */
export function RunResults({ run, onClose }: { run: QualityRun; onClose: () => void }) {
  const translate = useTranslate();
  const title = translate('resources.tables.quality.run_title', { when: formatWhen(run.endedAt ?? run.startedAt) });
  const card = useRef<HTMLElement>(null);
  // A run opened from the history below is shown up here: bring it into view.
  // In braces: a browser whose scrollIntoView answers a promise must not have it taken for the effect's cleanup.
  useEffect(() => {
    card.current?.scrollIntoView?.({ block: 'nearest' });
  }, [run.id]);
  return (
    <Card ref={card} variant="outlined" component="section" aria-label={translate('resources.tables.quality.run_results')} sx={{ mb: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <RunStatusChip status={run.status} />
          <Tooltip title={translate('ra.action.close')}>
            <IconButton size="small" aria-label={translate('resources.tables.quality.close_results')} onClick={onClose}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
        {run.error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {run.error}
          </Alert>
        )}
        {run.results.length === 0 && !run.error && (
          <Typography variant="body2">{translate('resources.tables.quality.no_results')}</Typography>
        )}
        {run.results.length > 0 && (
          <Table size="small" aria-label={translate('resources.tables.quality.run_results')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.tables.quality.rule')}</TableCell>
                <TableCell>{translate('resources.tables.quality.status')}</TableCell>
                <TableCell>{translate('resources.tables.quality.observed')}</TableCell>
                <TableCell>{translate('resources.tables.quality.rows_failed')}</TableCell>
                <TableCell>{translate('resources.tables.quality.failed_share')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {run.results.map((result) => (
                <ResultRows key={result.ruleId} runId={run.id} result={result} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function ResultRows({ runId, result }: { runId: string; result: RuleResult }) {
  return (
    <>
      <TableRow data-result={result.ruleId} sx={{ '& > td': { borderBottom: 'none' } }}>
        <TableCell>
          <RuleName ruleName={result.ruleName} columnName={result.columnName} />
          <CoverageChips result={result} />
        </TableCell>
        <TableCell>
          <RunStatusChip status={result.status} />
        </TableCell>
        <TableCell>{formatObserved(result.observed)}</TableCell>
        <TableCell>{failedRowsText(result)}</TableCell>
        <TableCell>{formatShare(result.failedShare)}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={5} sx={{ pt: 0 }}>
          <ResultDetails runId={runId} result={result} />
        </TableCell>
      </TableRow>
    </>
  );
}
