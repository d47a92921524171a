import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SaveIcon from '@mui/icons-material/Save';
import ViewWeekIcon from '@mui/icons-material/ViewWeek';
import { Box, Button, Divider, MenuList, Popover } from '@mui/material';
import { useState } from 'react';
import { usePermissions, useTranslate } from 'react-admin';
import type { ConsolePermissions } from '../../../providers/authProvider';
import { useDeclaration } from '../DeclarationContext';
import { storeKeyOf } from '../declaration';
import { MenuAction } from '../MenuAction';
import { useColumnChoices } from './useColumnChoices';

/**
 * react-admin's columns button (its DataTable renders the column list into this popover), with
 * the console's two extra actions: back to the company default, and (admins) saving the
 * current columns as that default for everyone.
 */
export function ColumnsMenuButton() {
  const declaration = useDeclaration();
  const translate = useTranslate();
  const { permissions } = usePermissions<ConsolePermissions>();
  const { saveAsTenantDefault, resetToTenantDefault } = useColumnChoices(declaration);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The popover stays mounted (react-admin's table draws its column list into it as it first
  // shows); its own actions are drawn the first time it opens, not with the list's first rows.
  const [opened, setOpened] = useState(false);
  const storeKey = storeKeyOf(declaration.name);
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        size="small"
        startIcon={<ViewWeekIcon />}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setOpened(true);
        }}
      >
        {translate('ra.action.select_columns', { _: 'Columns' })}
      </Button>
      <Popover
        open={Boolean(anchor)}
        keepMounted
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        transformOrigin={{ vertical: 'top', horizontal: 'left' }}
      >
        {/* react-admin's own reset would only reset this browser: the actions below replace it. */}
        <Box id={`${storeKey}-columnsSelector`} sx={{ px: 1, my: 0, minWidth: 220, '& .columns-selector-actions': { display: 'none' } }} />
        {opened && <Divider />}
        {opened && (
          <MenuList dense>
            <MenuAction
              icon={RestartAltIcon}
              label={translate('app.list.columns_reset')}
              close={close}
              onAct={() => void resetToTenantDefault()}
            />
            {permissions?.isAdmin && (
              <MenuAction
                icon={SaveIcon}
                label={translate('app.list.columns_save_tenant')}
                close={close}
                onAct={() => void saveAsTenantDefault()}
              />
            )}
          </MenuList>
        )}
      </Popover>
    </>
  );
}
