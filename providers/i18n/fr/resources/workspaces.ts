/** French texts of Workspaces (`resources.workspaces`). */
export const workspaces = {
  name: 'Espace de travail |||| Espaces de travail',
  fields: {
    name: 'Nom',
    description: 'Description',
    isActive: 'Actif',
    memberCount: 'Membres',
    createdByName: 'Créé par',
    createdAt: 'Créé',
    updatedAt: 'Modifié',
  },
  filters: {
    search: 'Rechercher des espaces de travail',
  },
};
