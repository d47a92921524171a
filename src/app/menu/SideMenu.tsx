import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Collapse, Divider, List, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import { memo, type ReactElement } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import { isMenuGroupOpen, type LayoutPreferences } from '../../../providers/preferences';
import { useLayoutPreferences, type LayoutPreferenceActions } from '../preferences/LayoutPreferencesContext';
import { menuIcon } from './icons';
import { isGroup, type MenuNode } from './navigation';
import { useNavigationMenu, type NavigationMenu } from './useNavigationMenu';
import { usePrepareListPage } from './usePrepareListPage';

interface EntryContext {
  menu: NavigationMenu;
  preferences: LayoutPreferences;
  actions: LayoutPreferenceActions;
  /** Icons only, labels in tooltips. */
  iconsOnly: boolean;
  onNavigate?: () => void;
}

/** Collapsed, a label shows as a tooltip (and names the button for assistive technology). */
function WithTooltip({ show, title, children }: { show: boolean; title: string; children: ReactElement }) {
  return show ? (
    <Tooltip title={title} placement="right">
      {children}
    </Tooltip>
  ) : (
    children
  );
}

function indent(depth: number, iconsOnly: boolean) {
  return iconsOnly ? 2.5 : 2 + depth * 1.5;
}

function GroupChildren({ node, depth, context }: { node: MenuNode; depth: number; context: EntryContext }) {
  return node.children.map((child) => <MenuEntry key={child.id} node={child} depth={depth + 1} context={context} />);
}

/**
 * A group header that opens and closes its pages. Collapsed to icons, a group is only a
 * separator over its pages: a group icon beside page icons would read as one more page.
 */
function GroupEntry({ node, depth, context }: { node: MenuNode; depth: number; context: EntryContext }) {
  const { menu, preferences, actions, iconsOnly } = context;
  if (iconsOnly) {
    return (
      <>
        {depth === 0 && <Divider component="li" aria-hidden sx={{ my: 0.5, borderColor: 'currentColor', opacity: 0.15, '&:first-of-type': { display: 'none' } }} />}
        <GroupChildren node={node} depth={depth} context={context} />
      </>
    );
  }
  const open = isMenuGroupOpen(preferences, node.id);
  const Icon = menuIcon(node.icon, 'group');
  return (
    <>
      <ListItemButton
        onClick={() => actions.toggleMenuGroup(node.id)}
        aria-expanded={open}
        className={menu.trail.includes(node) && !open ? 'console-active' : undefined}
        sx={{ pl: indent(depth, false), minHeight: 40 }}
      >
        <ListItemIcon>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={menu.label(node)} slotProps={{ primary: { variant: 'body2', noWrap: true, sx: { fontWeight: 600 } } }} />
        {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List disablePadding dense>
          <GroupChildren node={node} depth={depth} context={context} />
        </List>
      </Collapse>
    </>
  );
}

interface PageEntryProps {
  node: MenuNode;
  depth: number;
  active: boolean;
  label: string;
  iconsOnly: boolean;
  onNavigate?: () => void;
}

/** A page link; rendered again only when it changes (a move to another page changes two of them). */
const PageEntry = memo(function PageEntry({ node, depth, active, label, iconsOnly, onNavigate }: PageEntryProps) {
  const Icon = menuIcon(node.icon, 'page');
  const prepareHandlers = usePrepareListPage(active ? undefined : node.url);
  return (
    <WithTooltip show={iconsOnly} title={label}>
      <ListItemButton
        component={LinkBase}
        to={node.url ?? '/'}
        {...prepareHandlers}
        selected={active}
        aria-current={active ? 'page' : undefined}
        aria-label={iconsOnly ? label : undefined}
        onClick={onNavigate}
        sx={{ pl: indent(depth, iconsOnly), minHeight: 40 }}
      >
        <ListItemIcon>
          <Icon fontSize="small" />
        </ListItemIcon>
        {!iconsOnly && <ListItemText primary={label} slotProps={{ primary: { variant: 'body2', noWrap: true } }} />}
      </ListItemButton>
    </WithTooltip>
  );
});

function MenuEntry({ node, depth, context }: { node: MenuNode; depth: number; context: EntryContext }) {
  if (isGroup(node)) return <GroupEntry node={node} depth={depth} context={context} />;
  const { menu, iconsOnly, onNavigate } = context;
  return (
    <PageEntry
      node={node}
      depth={depth}
      active={menu.trail[menu.trail.length - 1] === node}
      label={menu.label(node)}
      iconsOnly={iconsOnly}
      onNavigate={onNavigate}
    />
  );
}

/**
 * The vertical menu: groups that open and close (remembered in the layout preferences) and
 * page links, the current page highlighted.
 */
export function SideMenu({ iconsOnly = false, onNavigate }: { iconsOnly?: boolean; onNavigate?: () => void }) {
  const menu = useNavigationMenu();
  const [preferences, actions] = useLayoutPreferences();
  const translate = useTranslate();
  const context: EntryContext = { menu, preferences, actions, iconsOnly, onNavigate };
  return (
    <List component="nav" aria-label={translate('app.menu.label')} dense sx={{ py: 1 }}>
      {menu.items.map((node) => (
        <MenuEntry key={node.id} node={node} depth={0} context={context} />
      ))}
    </List>
  );
}
