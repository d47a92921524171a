/** French texts of the Mail outbox (`resources.outbox`). */
export const outbox = {
  name: 'E-mail |||| Boîte d’envoi',
  fields: {
    createdAt: 'Créé',
    toAddress: 'À',
    subject: 'Objet',
    kind: 'Type',
    status: 'Statut',
    sentAt: 'Envoyé',
    error: 'Erreur',
    text: 'Message',
  },
  no_body: 'Cet e-mail n’a pas de corps texte.',
};
