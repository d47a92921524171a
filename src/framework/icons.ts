import type SvgIcon from '@mui/material/SvgIcon';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import ApiIcon from '@mui/icons-material/Api';
import AssessmentIcon from '@mui/icons-material/Assessment';
import BusinessIcon from '@mui/icons-material/Business';
import CableIcon from '@mui/icons-material/Cable';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DatasetIcon from '@mui/icons-material/Dataset';
import DevicesIcon from '@mui/icons-material/Devices';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FolderIcon from '@mui/icons-material/Folder';
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import HubIcon from '@mui/icons-material/Hub';
import KeyIcon from '@mui/icons-material/Key';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import NotificationsIcon from '@mui/icons-material/Notifications';
import OutgoingMailIcon from '@mui/icons-material/OutgoingMail';
import PersonIcon from '@mui/icons-material/Person';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import PolicyIcon from '@mui/icons-material/Policy';
import SecurityIcon from '@mui/icons-material/Security';
import SettingsIcon from '@mui/icons-material/Settings';
import StorageIcon from '@mui/icons-material/Storage';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SummarizeIcon from '@mui/icons-material/Summarize';
import TableChartIcon from '@mui/icons-material/TableChart';
import TimelineIcon from '@mui/icons-material/Timeline';
import WorkspacesIcon from '@mui/icons-material/Workspaces';

type SvgIconComponent = typeof SvgIcon;

/**
 * Material icon names the navigation may send (snake_case, as in Google's icon font), mapped to
 * the icon components bundled with the console. Only these are bundled: importing the whole icon
 * set would add megabytes. An unknown name falls back to a folder (groups) or a chevron (pages).
 */
const ICONS: Record<string, SvgIconComponent> = {
  account_tree: AccountTreeIcon,
  admin_panel_settings: AdminPanelSettingsIcon,
  api: ApiIcon,
  assessment: AssessmentIcon,
  business: BusinessIcon,
  cable: CableIcon,
  credit_card: CreditCardIcon,
  dashboard: DashboardIcon,
  dataset: DatasetIcon,
  devices: DevicesIcon,
  fact_check: FactCheckIcon,
  folder: FolderIcon,
  group: GroupIcon,
  people: GroupIcon,
  history: HistoryIcon,
  hub: HubIcon,
  key: KeyIcon,
  vpn_key: KeyIcon,
  menu_book: MenuBookIcon,
  notifications: NotificationsIcon,
  outgoing_mail: OutgoingMailIcon,
  person: PersonIcon,
  play_circle: PlayCircleIcon,
  policy: PolicyIcon,
  security: SecurityIcon,
  settings: SettingsIcon,
  storage: StorageIcon,
  storefront: StorefrontIcon,
  summarize: SummarizeIcon,
  table_chart: TableChartIcon,
  timeline: TimelineIcon,
  workspaces: WorkspacesIcon,
};

/** Accepts `outgoing_mail`, `outgoing-mail` or `OutgoingMail`. */
function normaliseIconName(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

export function menuIcon(name: string | undefined, kind: 'group' | 'page'): SvgIconComponent {
  const icon = name ? ICONS[normaliseIconName(name)] : undefined;
  return icon ?? (kind === 'group' ? FolderIcon : ChevronRightIcon);
}
