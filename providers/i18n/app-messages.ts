import type { StringMap } from 'react-admin';

/**
 * The console's own English texts, merged over react-admin's. Navigation titles
 * (`nav.page.<id>`) and dashboard card labels (`app.dashboard.card.<key>`) are left out on
 * purpose: in English the server's titles are shown as they are; another locale adds the keys.
 */
export const appMessages = {
  app: {
    name: 'DataOps Console',
    menu: {
      label: 'Main navigation',
      collapse: 'Collapse menu',
      expand: 'Expand menu',
      open_group: 'Open %{name}',
      close_group: 'Close %{name}',
    },
    appbar: {
      breadcrumb: 'Breadcrumb',
      customize: 'Customize',
      theme_dark: 'Switch to dark theme',
      theme_light: 'Switch to light theme',
      change_password: 'Change password',
      two_factor: 'Two-factor authentication',
      sign_out: 'Sign out',
    },
    customize: {
      title: 'Customize',
      close: 'Close',
      reset: 'Reset to defaults',
      layout: 'Layout',
      layout_vertical: 'Vertical',
      layout_horizontal: 'Horizontal',
      theme: 'Theme',
      theme_light: 'Light',
      theme_dark: 'Dark',
      menu_colour: 'Menu colours',
      menu_dark: 'Dark',
      menu_light: 'Light',
      header_colour: 'Header colours',
      header_dark: 'Dark',
      header_light: 'Light',
      options: 'Options',
      collapse_menu: 'Collapsed menu (icons only)',
      nav_fixed: 'Fixed navigation',
      header_fixed: 'Fixed header',
      full_width: 'Full width',
    },
    dashboard: {
      title: 'Dashboard',
      welcome: 'Welcome, %{name}',
      welcome_anonymous: 'Welcome',
      tenant: '%{company} · %{hostname}',
      holds: 'What your company holds',
      administration: 'Administration',
      people: 'People',
      people_empty: 'No other active users yet.',
      you: 'You',
      admin: 'Admin',
      sign_in_as: 'Sign in as',
      sign_in_as_label: 'Sign in as %{name}',
    },
    impersonation: {
      banner: 'You are signed in as %{name} (%{email}) on behalf of %{admin}',
      return: 'Return to my account',
    },
    outbox: {
      body: 'Message',
      no_body: 'This mail has no text body.',
    },
  },
  resources: {
    outbox: {
      name: 'Mail |||| Mail outbox',
      fields: {
        createdAt: 'Created',
        toAddress: 'To',
        subject: 'Subject',
        kind: 'Kind',
        status: 'Status',
        sentAt: 'Sent',
        error: 'Error',
        text: 'Message',
      },
    },
  },
} satisfies StringMap;
