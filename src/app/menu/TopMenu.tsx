import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Button, ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import { menuIcon } from '../../framework/icons';
import { isGroup, type MenuNode } from './navigation';
import { useNavigationMenu, type NavigationMenu } from './useNavigationMenu';
import { usePrepareListPage } from './usePrepareListPage';

/** A group's pages as dropdown rows; a nested group becomes a sub-heading over its pages. */
function dropdownRows(nodes: MenuNode[], menu: NavigationMenu, close: () => void, depth = 0): ReactNode[] {
  return nodes.flatMap((node) => {
    if (isGroup(node)) {
      return [
        <ListSubheader key={`${node.id}-heading`} sx={{ pl: 2 + depth * 1.5, lineHeight: '32px' }}>
          {menu.label(node)}
        </ListSubheader>,
        ...dropdownRows(node.children, menu, close, depth + 1),
      ];
    }
    return [<DropdownPage key={node.id} node={node} menu={menu} close={close} depth={depth} />];
  });
}

function DropdownPage({ node, menu, close, depth }: { node: MenuNode; menu: NavigationMenu; close: () => void; depth: number }) {
  const Icon = menuIcon(node.icon, 'page');
  const active = menu.trail[menu.trail.length - 1] === node;
  const prepareHandlers = usePrepareListPage(active ? undefined : node.url);
  return (
    <MenuItem
      component={LinkBase}
      to={node.url ?? '/'}
      {...prepareHandlers}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={close}
      sx={{ pl: 2 + depth * 1.5 }}
    >
      <ListItemIcon>
        <Icon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{menu.label(node)}</ListItemText>
    </MenuItem>
  );
}

function TopMenuGroup({ node, menu }: { node: MenuNode; menu: NavigationMenu }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const Icon = menuIcon(node.icon, 'group');
  const close = () => setAnchor(null);
  const menuId = `top-menu-${node.id}`;
  return (
    <>
      <Button
        color="inherit"
        startIcon={<Icon fontSize="small" />}
        endIcon={<ExpandMoreIcon fontSize="small" />}
        aria-haspopup="menu"
        aria-expanded={Boolean(anchor)}
        aria-controls={anchor ? menuId : undefined}
        className={menu.trail.includes(node) ? 'console-active' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
      >
        {menu.label(node)}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {dropdownRows(node.children, menu, close)}
      </Menu>
    </>
  );
}

function TopMenuLink({ node, menu }: { node: MenuNode; menu: NavigationMenu }) {
  const Icon = menuIcon(node.icon, 'page');
  const active = menu.trail[menu.trail.length - 1] === node;
  const prepareHandlers = usePrepareListPage(active ? undefined : node.url);
  return (
    <Button
      color="inherit"
      component={LinkBase}
      to={node.url ?? '/'}
      {...prepareHandlers}
      startIcon={<Icon fontSize="small" />}
      aria-current={active ? 'page' : undefined}
      className={active ? 'console-active' : undefined}
    >
      {menu.label(node)}
    </Button>
  );
}

/** The horizontal layout's menu: one button per top-level entry, groups open a dropdown. */
export function TopMenu() {
  const menu = useNavigationMenu();
  const translate = useTranslate();
  return (
    <Box component="nav" aria-label={translate('app.menu.label')} sx={{ display: 'flex', gap: 0.5, px: 1, py: 0.5, overflowX: 'auto' }}>
      {menu.items.map((node) =>
        isGroup(node) ? <TopMenuGroup key={node.id} node={node} menu={menu} /> : <TopMenuLink key={node.id} node={node} menu={menu} />,
      )}
    </Box>
  );
}
