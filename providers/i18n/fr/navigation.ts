/**
 * French titles of the menu's groups and pages (`nav.page.<id>`), by the ids of the contract's
 * page catalogue and page groups. In English the server's own titles are shown as they are.
 */
export const navigationFr = {
  nav: {
    page: {
      overview: 'Vue d’ensemble',
      data: 'Données',
      access: 'Contrôle d’accès',
      company: 'Entreprise',
      administration: 'Administration',
      dashboard: 'Tableau de bord',
      notifications: 'Notifications',
      connections: 'Connexions',
      'source-destinations': 'Paires source/destination',
      tables: 'Tables',
      workflows: 'Workflows',
      'job-runs': 'Exécutions',
      users: 'Utilisateurs',
      roles: 'Rôles et droits',
      workspaces: 'Espaces de travail',
      apikeys: 'Clés d’API',
      'api-explorer': 'Explorateur d’API',
      marketplace: 'Marketplace',
      settings: 'Paramètres',
      reports: 'Rapports',
      subscription: 'Abonnement',
      sessions: 'Sessions',
      audits: 'Audits système',
      'access-events': 'Événements d’accès',
      outbox: 'Boîte d’envoi',
    },
  },
};
