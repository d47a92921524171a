import { Box, Link, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { linkify } from './linkify';

/** The mail's text body as written (line breaks kept), its links clickable. */
export function MailTextField() {
  const record = useRecordContext<{ text?: string | null }>();
  const translate = useTranslate();
  if (!record?.text) {
    return <Typography color="text.secondary">{translate('resources.outbox.no_body')}</Typography>;
  }
  return (
    <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', fontSize: '0.875rem' }}>
      {linkify(record.text).map((part, index) =>
        part.kind === 'link' ? (
          <Link key={index} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.href}
          </Link>
        ) : (
          part.text
        ),
      )}
    </Box>
  );
}
