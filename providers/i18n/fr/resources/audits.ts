/** French texts of System audits (`resources.audits`). */
export const audits = {
  name: 'Audit système |||| Audits système',
  fields: {
    createdAt: 'Heure',
    userName: 'Utilisateur',
    impersonatorEmail: 'Admin agissant',
    apiKeyName: 'Clé d’API',
    model: 'Modèle',
    operation: 'Opération',
    recordId: 'Enregistrement',
    ip: 'Adresse',
    changes: 'Modifications',
  },
  filters: {
    model: 'Modèle',
    operation: 'Opération',
    user: 'Utilisateur',
    search: 'Rechercher dans les audits',
  },
  system: 'Système',
  deleted_user: 'Utilisateur supprimé',
  changes: {
    field: 'Champ',
    before: 'Avant',
    after: 'Après',
    empty: 'vide',
    none: 'Aucun champ modifié.',
  },
};
