import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Chip, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../../framework/feedback';
import { downloadAttachment, fileSize, type HeadlineFigure, type ReportRow } from './api';

/** How a report is named and attributed in the console's words. */
export function useReportTexts() {
  const translate = useTranslate();
  return {
    title: (report: Pick<ReportRow, 'kind' | 'title'>) => translate(`resources.reports.kind_title.${report.kind}`, { _: report.title }),
    kind: (report: Pick<ReportRow, 'kind'>) => translate(`resources.reports.kind.${report.kind}`, { _: report.kind }),
    madeBy: (report: Pick<ReportRow, 'createdByName'>) =>
      report.createdByName
        ? translate('resources.reports.made_by', { name: report.createdByName })
        : translate('resources.reports.made_by_server'),
  };
}

/** The headline figures as small labelled chips (the server's label when the console has no text for a key). */
export function HeadlineFigures({ figures }: { figures: HeadlineFigure[] }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {figures.map((figure) => (
        <Chip
          key={figure.key}
          size="small"
          variant="outlined"
          data-figure={figure.key}
          label={`${translate(`resources.reports.headline.${figure.key}`, { _: figure.label })}: ${figure.value.toLocaleString('en')}`}
        />
      ))}
    </Box>
  );
}

/** A download button per file of the report (the call carries the session's token). */
export function AttachmentButtons({ report }: { report: Pick<ReportRow, 'id' | 'attachments'> }) {
  const translate = useTranslate();
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (file: ReportRow['attachments'][number]) => {
    setBusy(file.id);
    try {
      await downloadAttachment(report.id, file);
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      {report.attachments.map((file) => (
        <Button
          key={file.id}
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => void download(file)}
          disabled={busy === file.id}
          aria-busy={busy === file.id}
          aria-label={translate('resources.reports.download', { name: file.fileName })}
          sx={{ textTransform: 'none' }}
        >
          {file.fileName} ({fileSize(file.size)})
        </Button>
      ))}
    </Stack>
  );
}
