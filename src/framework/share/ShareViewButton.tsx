import ShareIcon from '@mui/icons-material/Share';
import { useState } from 'react';
import { Button, useCanAccess, useResourceContext, useTranslate } from 'react-admin';
import { useLocation } from 'react-router';
import { ShareDialog } from './ShareDialog';

/** The policy resource sharing belongs to (docs/api/reports.md): reports/create may share. */
const SHARES_ACCESS = { resource: 'reports', action: 'create' } as const;

/**
 * "Share this view": sends the list as it is shown — its path with the filters, sort and page
 * react-admin keeps in the address — to chosen users, titled with the list's name. Shown only to
 * those who may share.
 */
export function ShareViewButton() {
  const translate = useTranslate();
  const resource = useResourceContext();
  const location = useLocation();
  const { canAccess } = useCanAccess(SHARES_ACCESS);
  const [open, setOpen] = useState(false);
  if (!canAccess) return null;
  const title = translate(`resources.${resource}.name`, { smart_count: 2, _: resource ?? '' });
  return (
    <>
      <Button label="resources.reports.share.view" onClick={() => setOpen(true)}>
        <ShareIcon />
      </Button>
      <ShareDialog
        open={open}
        onClose={() => setOpen(false)}
        target={{ kind: 'list', path: `${location.pathname}${location.search}`, title }}
      />
    </>
  );
}
