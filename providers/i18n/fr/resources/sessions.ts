/** French texts of Sessions (`resources.sessions`). */
export const sessions = {
  name: 'Session |||| Sessions',
  fields: {
    userName: 'Utilisateur',
    ip: 'Adresse',
    userAgent: 'Navigateur',
    createdAt: 'Ouverte',
    lastSeenAt: 'Dernière activité',
    expiresAt: 'Expire',
    endedAt: 'Terminée',
    endReason: 'Raison de fin',
    isDeleted: 'Statut',
    impersonatorEmail: 'Admin agissant',
  },
  filters: {
    user: 'Utilisateur',
    status: 'Statut',
    search: 'Rechercher des sessions',
  },
  states: {
    active: 'Active',
    ended: 'Terminée',
    pending: 'Connexion en cours',
  },
  current: 'Cette session',
  of_user: 'Sessions de %{name}',
  end_reasons: {
    logout: 'Déconnecté',
    ended_by_admin: 'Terminée par un admin',
    password_changed: 'Mot de passe changé',
    user_deactivated: 'Utilisateur désactivé',
    replaced: 'Connexion terminée',
  },
  end: {
    button: 'Terminer la session',
    label: 'Terminer la session de %{name}',
    title: 'Terminer cette session de %{name} ?',
    content: 'La personne est déconnectée de cet appareil à sa prochaine action.',
    done: 'Session terminée',
  },
  panel: {
    title: 'Sessions',
    all: 'Toutes les sessions de cet utilisateur',
    empty: 'Aucune session.',
  },
};
