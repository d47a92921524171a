/** French texts of Source/destination pairs (`resources.source-destinations`). */
export const sourceDestinations = {
  name: 'Paire source/destination |||| Paires source/destination',
  fields: {
    name: 'Nom',
    sourceName: 'Source',
    sourceType: 'Type de source',
    destinationName: 'Destination',
    destinationType: 'Type de destination',
    createdAt: 'Créée',
    updatedAt: 'Modifiée',
    isActive: 'Active',
  },
  filters: {
    search: 'Rechercher des paires',
  },
};
