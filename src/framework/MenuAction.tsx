import type { SvgIconComponent } from '@mui/icons-material';
import { ListItemIcon, ListItemText, MenuItem, type MenuItemProps } from '@mui/material';

/**
 * One action of a menu: its icon and its label. `close` (the menu's) runs first, then the
 * action. Any other MenuItem prop (disabled, dense, sx) passes through to the item.
 */
export function MenuAction({
  icon: Icon,
  label,
  close,
  onAct,
  ...item
}: Omit<MenuItemProps, 'onClick' | 'children'> & { icon: SvgIconComponent; label: string; close?: () => void; onAct: () => void }) {
  return (
    <MenuItem
      {...item}
      onClick={() => {
        close?.();
        onAct();
      }}
    >
      <ListItemIcon>
        <Icon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
}
