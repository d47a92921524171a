import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Collapse, Divider, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import { memo, type ReactElement } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import { isMenuGroupOpen } from '../../../providers/preferences';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';
import { menuIcon } from '../../framework/icons';
import { isGroup, type MenuNode } from './navigation';
import { useNavigationMenu, type NavigationMenu } from './useNavigationMenu';
import { usePrepareListPage } from './usePrepareListPage';

/**
 * What an entry is drawn from. Every field is stable between page changes except `activeId`,
 * given only to the entries on the way to the current page (null elsewhere): moving to another
 * page redraws the entries it leaves and enters, not the whole menu.
 */
interface EntryProps {
  node: MenuNode;
  depth: number;
  /** The current page's id, for an entry on the trail to it (or that was: it is redrawn). */
  activeId: string | null;
  /** Icons only, labels in tooltips. */
  iconsOnly: boolean;
  label: NavigationMenu['label'];
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

/** The id of the current page if it is `node` or under it, else null. */
function activeWithin(node: MenuNode, activeId: string | null): string | null {
  if (activeId === null) return null;
  if (node.id === activeId) return activeId;
  return node.children.some((child) => activeWithin(child, activeId) !== null) ? activeId : null;
}

function GroupChildren({ node, depth, ...rest }: EntryProps) {
  return node.children.map((child) => (
    <MenuEntry key={child.id} {...rest} node={child} depth={depth + 1} activeId={activeWithin(child, rest.activeId)} />
  ));
}

/**
 * A group header that opens and closes its pages. Collapsed to icons, a group is only a
 * separator over its pages: a group icon beside page icons would read as one more page.
 */
function GroupEntry(props: EntryProps) {
  const { node, depth, activeId, iconsOnly, label } = props;
  const [preferences, actions] = useLayoutPreferences();
  if (iconsOnly) {
    return (
      <>
        {depth === 0 && (
          <Divider
            component="li"
            aria-hidden
            sx={{ my: 0.5, borderColor: 'currentColor', opacity: 0.15, '&:first-of-type': { display: 'none' } }}
          />
        )}
        <GroupChildren {...props} />
      </>
    );
  }
  const open = isMenuGroupOpen(preferences, node.id);
  const Icon = menuIcon(node.icon, 'group');
  // The header and its pages are one item of the list around it, the pages a list of their own.
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        onClick={() => actions.toggleMenuGroup(node.id)}
        aria-expanded={open}
        className={activeId !== null && !open ? 'console-active' : undefined}
        sx={{ pl: indent(depth, false), minHeight: 40 }}
      >
        <ListItemIcon>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={label(node)} slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 600 } } }} />
        {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List disablePadding dense>
          <GroupChildren {...props} />
        </List>
      </Collapse>
    </ListItem>
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
    <ListItem disablePadding>
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
          {/* A long label takes a second line rather than being cut (and translations run longer). */}
          {!iconsOnly && <ListItemText primary={label} slotProps={{ primary: { variant: 'body2', sx: { lineHeight: 1.3 } } }} />}
        </ListItemButton>
      </WithTooltip>
    </ListItem>
  );
});

const MenuEntry = memo(function MenuEntry(props: EntryProps) {
  const { node, depth, activeId, iconsOnly, label, onNavigate } = props;
  if (isGroup(node)) return <GroupEntry {...props} />;
  return (
    <PageEntry node={node} depth={depth} active={activeId === node.id} label={label(node)} iconsOnly={iconsOnly} onNavigate={onNavigate} />
  );
});

/**
 * The vertical menu: groups that open and close (remembered in the layout preferences) and
 * page links, the current page highlighted.
 */
export function SideMenu({ iconsOnly = false, onNavigate }: { iconsOnly?: boolean; onNavigate?: () => void }) {
  const menu = useNavigationMenu();
  const translate = useTranslate();
  const current = menu.trail[menu.trail.length - 1];
  const activeId = current ? current.id : null;
  return (
    <Box component="nav" aria-label={translate('app.menu.label')}>
      <List dense sx={{ py: 1 }}>
        {menu.items.map((node) => (
          <MenuEntry
            key={node.id}
            node={node}
            depth={0}
            activeId={activeWithin(node, activeId)}
            iconsOnly={iconsOnly}
            label={menu.label}
            onNavigate={onNavigate}
          />
        ))}
      </List>
    </Box>
  );
}
