import type { ServerTextLanguage } from '../serverTextLanguage';

/**
 * The server's texts in French, keyed by their English wording (see ../serverTexts.ts).
 *
 * - `{name}` marks a variable part. A key and its French hold the same placeholders.
 * - A placeholder named problem, reason, what, wait, noun or detail holds a server text itself,
 *   which is worded in turn (`{noun} not found` words "Workflow"); any other is shown as sent.
 * - Field paths stay as the API names them ("email : doit être…"); only problems are worded. A
 *   problem that starts with a variable part is keyed with its field, or the variable part would
 *   swallow the path.
 *
 * tests/server/i18n/server-texts.test.ts reads the server's source and fails on a text this
 * catalogue does not know.
 */
export const serverTextsFr: ServerTextLanguage = {
  fieldSeparator: ' : ',
  listSeparator: ' ; ',
  texts: {
    // Records, as in "{noun} not found".
    '{noun} not found': '{noun} introuvable',
    'Company "{name}" not found': 'Entreprise « {name} » introuvable',
    'Stripe webhook endpoint (Stripe is not configured on this server) not found':
      'Webhooks Stripe indisponibles : Stripe n’est pas configuré sur ce serveur',
    Record: 'Enregistrement',
    'Access event': 'Événement d’accès',
    'API key': 'Clé d’API',
    Attachment: 'Pièce jointe',
    Avatar: 'Photo de profil',
    'Checkout session': 'Session de paiement',
    Company: 'Entreprise',
    Connection: 'Connexion',
    'Data-quality result': 'Résultat de qualité des données',
    'Data-quality rule': 'Règle de qualité des données',
    'Data-quality run': 'Passe de contrôle',
    Integration: 'Intégration',
    'Job run': 'Exécution',
    Mail: 'E-mail',
    Notification: 'Notification',
    Operation: 'Opération',
    Report: 'Rapport',
    Role: 'Rôle',
    Run: 'Exécution',
    Session: 'Session',
    'Settings group': 'Groupe de paramètres',
    'Source/destination pair': 'Paire source/destination',
    Subscription: 'Abonnement',
    'System audit': 'Audit système',
    Table: 'Table',
    User: 'Utilisateur',
    View: 'Vue',
    Workflow: 'Workflow',
    Workspace: 'Espace de travail',

    // Sign-in and accounts.
    'Invalid email, password or company host name': 'E-mail, mot de passe ou nom d’hôte de l’entreprise incorrect',
    'Invalid JWT token': 'Jeton JWT invalide',
    'Resource Access not provided': 'Accès à la ressource non accordé',
    'Your account is deactivated. Contact your administrator.': 'Votre compte est désactivé. Contactez votre administrateur.',
    'Your account is not activated yet. Use the link in your invitation email.':
      'Votre compte n’est pas encore activé. Utilisez le lien de votre e-mail d’invitation.',
    'The code is not valid': 'Le code n’est pas valide',
    'This code has already been used': 'Ce code a déjà été utilisé',
    'This activation link is invalid or has expired': 'Ce lien d’activation est invalide ou a expiré',
    "The Temporary Password doesn't match": 'Le mot de passe temporaire est incorrect',
    'must be different from the temporary password': 'doit être différent du mot de passe temporaire',
    'must be different from the current password': 'doit être différent du mot de passe actuel',
    'This password reset link is invalid or has expired': 'Ce lien de réinitialisation du mot de passe est invalide ou a expiré',
    'is not the address this reset link was sent to': 'n’est pas l’adresse à laquelle ce lien de réinitialisation a été envoyé',
    'The current password is not correct': 'Le mot de passe actuel est incorrect',
    'is not correct': 'est incorrect',
    'is required (or token)': 'est obligatoire (ou token)',
    'is not a link token (copy the whole link from the mail)': 'n’est pas un jeton de lien (copiez le lien entier depuis l’e-mail)',
    'must be one company host name': 'doit être un seul nom d’hôte d’entreprise',
    'must be one version': 'doit être une seule version',
    'Company sign-up is turned off on this server; ask its operator to create your company':
      'La création d’entreprise est désactivée sur ce serveur ; demandez à son opérateur de créer votre entreprise',
    'That company host name is already in use; choose another one': 'Ce nom d’hôte d’entreprise est déjà utilisé ; choisissez-en un autre',
    'This is not allowed while impersonating another user':
      'Cette action n’est pas permise pendant que vous empruntez l’identité d’un autre utilisateur',
    'End the current impersonation first': 'Terminez d’abord l’emprunt d’identité en cours',
    'you cannot impersonate yourself': 'vous ne pouvez pas emprunter votre propre identité',
    'this user has not activated the account yet': 'cet utilisateur n’a pas encore activé son compte',
    'this user is deactivated': 'cet utilisateur est désactivé',
    'this session has already ended': 'cette session est déjà terminée',
    'This route answers a stream of events: ask for it with "Accept: {type}"':
      'Cette route répond par un flux d’événements : demandez-le avec « Accept: {type} »',
    'This session already has {count} live streams open; close a tab and try again':
      'Cette session a déjà {count} flux en direct ouverts ; fermez un onglet et réessayez',
    'The database is unavailable': 'La base de données est indisponible',
    'The database lacks migrations of this server: {names}': 'Il manque à la base de données des migrations de ce serveur : {names}',
    'The job queue is unavailable': 'La file des tâches est indisponible',
    'Metrics need the token of METRICS_TOKEN, sent as Authorization: Bearer <token>':
      'Les métriques demandent le jeton de METRICS_TOKEN, envoyé comme Authorization: Bearer <jeton>',

    // Too many attempts: what was tried, and how long to wait.
    'Too many {what}. Try again in {wait}.': 'Trop de {what}. Réessayez dans {wait}.',
    'failed sign-in attempts': 'tentatives de connexion échouées',
    'failed sign-in attempts from this address': 'tentatives de connexion échouées depuis cette adresse',
    'failed codes': 'codes erronés',
    'password reset requests from this address': 'demandes de réinitialisation du mot de passe depuis cette adresse',
    'activation mail requests from this address': 'demandes d’e-mail d’activation depuis cette adresse',
    'company sign-ups from this address': 'créations d’entreprise depuis cette adresse',
    'test mails from this company': 'demandes d’e-mail de test pour cette entreprise',
    'Too many requests for this API key: at most {limit} a minute. Try again in {wait}.':
      'Trop de requêtes pour cette clé d’API : {limit} par minute au plus. Réessayez dans {wait}.',
    'Too many requests for this session: at most {limit} a minute. Try again in {wait}.':
      'Trop de requêtes pour cette session : {limit} par minute au plus. Réessayez dans {wait}.',
    '1 second': '1 seconde',
    '{count} seconds': '{count} secondes',
    '1 minute': '1 minute',
    '{count} minutes': '{count} minutes',

    // Two-factor authentication.
    'The recovery code is not valid or has already been used': 'Le code de secours n’est pas valide ou a déjà été utilisé',
    'Turn two-factor authentication on first: recovery codes stand in for its codes':
      'Activez d’abord l’authentification à deux facteurs : les codes de secours remplacent ses codes',
    'turn your own two-factor off from the Security section of your profile':
      'désactivez votre propre authentification à deux facteurs depuis la section Sécurité de votre profil',
    'Two-factor authentication is not on for {email}': 'L’authentification à deux facteurs n’est pas activée pour {email}',
    'Your company requires two-factor authentication, so it cannot be turned off':
      'Votre entreprise exige l’authentification à deux facteurs : elle ne peut pas être désactivée',
    'Your administrator requires two-factor authentication for your account, so it cannot be turned off':
      'Votre administrateur exige l’authentification à deux facteurs pour votre compte : elle ne peut pas être désactivée',
    'Two-factor authentication is not on': 'L’authentification à deux facteurs n’est pas activée',
    'Two-factor authentication is not set up for this account': 'L’authentification à deux facteurs n’est pas configurée pour ce compte',
    'Two-factor authentication is already on; turn it off before setting it up again':
      'L’authentification à deux facteurs est déjà activée ; désactivez-la avant de la configurer à nouveau',
    'Two-factor authentication is already on': 'L’authentification à deux facteurs est déjà activée',
    'Start the set-up first: ask for a QR code (GET /user/otp/setup)':
      'Commencez d’abord la configuration : demandez un QR code (GET /user/otp/setup)',
    'The set-up was restarted meanwhile; scan the new QR code and try again':
      'La configuration a été relancée entre-temps ; scannez le nouveau QR code et réessayez',
    'must be the 6 digits shown by the authenticator app': 'doit contenir les 6 chiffres affichés par l’application d’authentification',
    'must be one of your recovery codes, like abcde-fghjk': 'doit être l’un de vos codes de secours, comme abcde-fghjk',
    'is required (or a recoveryCode)': 'est obligatoire (ou un recoveryCode)',
    'give either otp or recoveryCode, not both': 'donnez otp ou recoveryCode, pas les deux',

    // Users and roles.
    "Only an admin can change an admin's account": 'Seul un administrateur peut modifier le compte d’un administrateur',
    'A user with this email already exists': 'Un utilisateur avec cet e-mail existe déjà',
    'is already taken': 'est déjà pris',
    'you cannot change your own role': 'vous ne pouvez pas changer votre propre rôle',
    'you cannot deactivate your own account': 'vous ne pouvez pas désactiver votre propre compte',
    'you cannot delete your own account': 'vous ne pouvez pas supprimer votre propre compte',
    'the last active admin cannot be deactivated': 'le dernier administrateur actif ne peut pas être désactivé',
    'the last active admin cannot be deleted': 'le dernier administrateur actif ne peut pas être supprimé',
    'the last active admin must keep an admin role': 'le dernier administrateur actif doit garder un rôle admin',
    'no such role': 'ce rôle n’existe pas',
    'this role is deactivated': 'ce rôle est désactivé',
    'only an admin can give an admin role': 'seul un administrateur peut attribuer un rôle admin',
    'no such workspace': 'cet espace de travail n’existe pas',
    'no such workspace ({id})': 'cet espace de travail n’existe pas ({id})',
    'A workspace with this name already exists': 'Un espace de travail porte déjà ce nom',
    "{field}: {domain} is not one of the company's allowed domains ({domains})":
      '{field} : {domain} ne fait pas partie des domaines autorisés de l’entreprise ({domains})',
    'must be a PNG, JPEG or WebP image': 'doit être une image PNG, JPEG ou WebP',
    'cannot be true while a new picture is sent': 'ne peut pas valoir true quand une nouvelle photo est envoyée',
    'may only contain letters, spaces, apostrophes, hyphens and periods':
      'ne peut contenir que des lettres, des espaces, des apostrophes, des tirets et des points',
    'may only contain letters, digits, dots, underscores and hyphens':
      'ne peut contenir que des lettres, des chiffres, des points, des tirets bas et des tirets',
    'must be a phone number such as +44 20 7946 0958': 'doit être un numéro de téléphone comme +44 20 7946 0958',
    'must be a list of workspace ids': 'doit être une liste d’identifiants d’espaces de travail',
    'may hold at most 200 workspaces': 'peut contenir au plus 200 espaces de travail',
    'must be 4 to 6 digits': 'doit comporter de 4 à 6 chiffres',
    'must be 1 to 100 letters, digits, dots, underscores or hyphens':
      'doit comporter de 1 à 100 lettres, chiffres, points, tirets bas ou tirets',
    'is required (any JSON value)': 'est obligatoire (toute valeur JSON)',
    'must be at most {size} KB of JSON': 'doit faire au plus {size} Ko de JSON',
    'at most {count} different preferences can be kept per user':
      'au plus {count} préférences différentes peuvent être gardées par utilisateur',
    'A role named "{name}" already exists': 'Un rôle nommé « {name} » existe déjà',
    '1 user has this role; give them another role first': '1 utilisateur a ce rôle ; donnez-lui d’abord un autre rôle',
    '{count} users have this role; give them another role first': '{count} utilisateurs ont ce rôle ; donnez-leur d’abord un autre rôle',
    'name: {role} is a system role and cannot be renamed': 'name : {role} est un rôle système et ne peut pas être renommé',
    'isActive: {role} is a system role and cannot be deactivated': 'isActive : {role} est un rôle système et ne peut pas être désactivé',
    'id: {role} is a system role and cannot be deleted': 'id : {role} est un rôle système et ne peut pas être supprimé',
    'policies: {role} is an admin role; it holds every policy and they cannot be changed':
      'policies : {role} est un rôle admin ; il a tous les droits, qui ne peuvent pas être modifiés',
    'pageIds: {role} is an admin role and keeps the Roles and policies page, the way back to this editor':
      'pageIds : {role} est un rôle admin et garde la page Rôles et droits, pour toujours pouvoir revenir à cet éditeur',
    '"{resource}" is not a resource (one of {resources})': '« {resource} » n’est pas une ressource (valeurs possibles : {resources})',
    'policies.{index}.actions: {resource} allows only {actions}': 'policies.{index}.actions : {resource} n’autorise que {actions}',
    'you cannot change your own policies; ask another administrator':
      'vous ne pouvez pas changer vos propres droits ; demandez à un autre administrateur',
    'userId: {email} has an admin role, which holds every policy; give them another role to limit what they may do':
      'userId : {email} a un rôle admin, qui donne tous les droits ; donnez-lui un autre rôle pour limiter ce qu’il peut faire',
    'must be a list of actions': 'doit être une liste d’actions',
    'must be a list of actions such as ["read", "update"]': 'doit être une liste d’actions comme ["read", "update"]',
    'may hold at most 20 actions': 'peut contenir au plus 20 actions',
    'must be a list of { resource, actions }': 'doit être une liste de { resource, actions }',
    'may hold at most {count} entries': 'peut contenir au plus {count} entrées',
    'must be a list of page ids': 'doit être une liste d’identifiants de pages',
    'may not hold an empty page id': 'ne peut pas contenir d’identifiant de page vide',
    'may hold page ids of at most 100 characters': 'peut contenir des identifiants de pages de 100 caractères au plus',
    'may hold at most {count} page ids': 'peut contenir au plus {count} identifiants de pages',
    'give a name or a description to change': 'indiquez un nom ou une description à modifier',
    'choose at least one page': 'choisissez au moins une page',

    // API keys.
    'Resource Access not provided: only an admin may change a key that acts as someone else':
      'Accès à la ressource non accordé : seul un administrateur peut modifier une clé qui agit au nom d’une autre personne',
    'you may only make keys that act as yourself': 'vous ne pouvez créer que des clés qui agissent en votre nom',
    'no active user of the company has this id': 'aucun utilisateur actif de l’entreprise n’a cet identifiant',
    'not operations a key may be granted: {ids}': 'ces opérations ne peuvent pas être accordées à une clé : {ids}',
    'This API key is deleted; it cannot be changed': 'Cette clé d’API est supprimée ; elle ne peut plus être modifiée',
    'This API key is already deleted': 'Cette clé d’API est déjà supprimée',
    'This API key is not valid, or is deactivated or expired': 'Cette clé d’API n’est pas valide, ou elle est désactivée ou expirée',
    'This API key is not allowed to call this operation': 'Cette clé d’API n’est pas autorisée à appeler cette opération',
    'must be an operation id such as get_workspaces': 'doit être un identifiant d’opération comme get_workspaces',
    'must be a list of operation ids': 'doit être une liste d’identifiants d’opérations',
    'must be operation ids such as get_workspaces': 'doit contenir des identifiants d’opérations comme get_workspaces',
    'may hold at most {count} operations': 'peut contenir au plus {count} opérations',
    'is required: a list of operation ids': 'est obligatoire : une liste d’identifiants d’opérations',
    'must be a date such as 2030-01-31': 'doit être une date comme 2030-01-31',
    'must be in the future': 'doit être dans le futur',

    // Connections.
    'a connection with this name already exists': 'une connexion porte déjà ce nom',
    'no such connection': 'cette connexion n’existe pas',
    'The connection "{name}" is deactivated; activate it first': 'La connexion « {name} » est désactivée ; activez-la d’abord',
    'the connection "{name}" is deactivated': 'la connexion « {name} » est désactivée',
    'a {type} connection has no tables': 'une connexion {type} n’a pas de tables',
    'a {type} connection cannot be a source': 'une connexion {type} ne peut pas être une source',
    'a {type} connection cannot be a destination': 'une connexion {type} ne peut pas être une destination',
    'must differ from the source': 'doit différer de la source',
    '"{name}" is not a source': '« {name} » n’est pas une source',
    '"{name}" is not a destination': '« {name} » n’est pas une destination',
    '"{source}" is already paired with "{destination}"': '« {source} » est déjà associée à « {destination} »',
    '"{id}" is not a cloud-storage integration (one of {ids})':
      '« {id} » n’est pas une intégration de stockage cloud (valeurs possibles : {ids})',
    'this connection is not a git or Bitbucket repository': 'cette connexion n’est pas un dépôt git ou Bitbucket',
    'must be an email address (the one of your Atlassian account)': 'doit être une adresse e-mail (celle de votre compte Atlassian)',
    'Bitbucket no longer accepts app passwords (they were removed on 28 July 2026): edit this connection and give the email of your Atlassian account and an API token with the scope read:repository:bitbucket':
      'Bitbucket n’accepte plus les mots de passe d’application (supprimés le 28 juillet 2026) : modifiez cette connexion et indiquez l’e-mail de votre compte Atlassian et un jeton d’API avec la portée read:repository:bitbucket',
    'must be an object of settings': 'doit être un objet de réglages',
    'is not a setting of {type}': 'n’est pas un réglage de {type}',
    'is not valid': 'n’est pas valide',
    'may hold only letters, digits, - and _ (at most 63)': 'ne peut contenir que des lettres, des chiffres, - et _ (63 au plus)',
    'must be a bucket name: 3 to 222 lowercase letters, digits, -, _ and .':
      'doit être un nom de bucket : 3 à 222 lettres minuscules, chiffres, -, _ et .',
    'must be the JSON key file of a service account (with client_email and private_key)':
      'doit être le fichier de clé JSON d’un compte de service (avec client_email et private_key)',
    'must be a storage account name: 3 to 24 lowercase letters and digits':
      'doit être un nom de compte de stockage : 3 à 24 lettres minuscules et chiffres',
    'must be a container name: 3 to 63 lowercase letters, digits and single hyphens':
      'doit être un nom de conteneur : 3 à 63 lettres minuscules, chiffres et tirets isolés',
    'must be a storage account access key (base64)': 'doit être une clé d’accès de compte de stockage (base64)',
    'must be a SAS token: the query string that holds sig=…': 'doit être un jeton SAS : la chaîne de requête qui contient sig=…',
    'must be the ID of a SQL warehouse: letters and digits': 'doit être l’ID d’un entrepôt SQL : des lettres et des chiffres',
    'Name a SQL warehouse on this connection to run checks on it':
      'Indiquez un entrepôt SQL sur cette connexion pour y exécuter des contrôles',
    'Custom SQL does not run on Databricks connections: its queries cannot be checked to read only; write the check as a built-in rule':
      'Le SQL personnalisé ne s’exécute pas sur les connexions Databricks : on ne peut pas vérifier que ses requêtes ne font que lire ; écrivez le contrôle avec une règle intégrée',
    'must be a URL': 'doit être une URL',
    'must be an http(s) URL': 'doit être une URL http(s)',

    // Tables and data quality.
    'this table is already registered from this connection': 'cette table est déjà enregistrée depuis cette connexion',
    '"{endpoint}" has no columns': '« {endpoint} » n’a pas de colonnes',
    'columns: {names} is not a column of this table': 'columns : {names} n’est pas une colonne de cette table',
    'columns: {names} are not columns of this table': 'columns : {names} ne sont pas des colonnes de cette table',
    '"{name}" is not a column of this table': '« {name} » n’est pas une colonne de cette table',
    '"{name}" is given twice': '« {name} » figure deux fois',
    'send the CSV as a file of a multipart/form-data body': 'envoyez le CSV comme fichier d’un corps multipart/form-data',
    'no file was sent': 'aucun fichier n’a été envoyé',
    'send one file only': 'envoyez un seul fichier',
    'this is not a text file; send a CSV file': 'ce n’est pas un fichier texte ; envoyez un fichier CSV',
    'must be a list of column entries': 'doit être une liste d’entrées de colonnes',
    'not every id is a rule of this table': 'certains identifiants ne sont pas des règles de cette table',
    'The table "{name}" has no active data-quality rules to run': 'La table « {name} » n’a aucune règle de qualité active à exécuter',
    'not a valid regular expression: {reason}': 'expression régulière invalide : {reason}',
    'not a valid regular expression: lookarounds, back-references and \\d \\w \\s \\b are not POSIX; use [0-9], [[:alnum:]_], [[:space:]]':
      'expression régulière invalide : les assertions avant et arrière, les références arrière et \\d \\w \\s \\b ne sont pas POSIX ; utilisez [0-9], [[:alnum:]_], [[:space:]]',
    'must be one SELECT or WITH statement': 'doit être une seule instruction SELECT ou WITH',
    'each must be at most 200 characters': 'chacune doit comporter au plus 200 caractères',
    'each must be text or a number': 'chacune doit être du texte ou un nombre',
    'must be a list of values': 'doit être une liste de valeurs',
    'give at least one value': 'indiquez au moins une valeur',
    'may hold at most {count} values': 'peut contenir au plus {count} valeurs',
    'must be a number of minutes': 'doit être un nombre de minutes',
    'must be a whole number of minutes': 'doit être un nombre entier de minutes',
    'must be at least 1 minute': 'doit valoir au moins 1 minute',
    'must be at most ten years': 'doit valoir au plus dix ans',
    'must be fail or warn': 'doit valoir fail ou warn',
    'must be a number from 0 to 1': 'doit être un nombre de 0 à 1',
    'is required for {function}': 'est obligatoire pour {function}',
    'must be empty for {function}': 'doit être vide pour {function}',
    'does not apply to {function}': 'ne s’applique pas à {function}',
    'does not apply to unique: a sample cannot tell whether a value repeats elsewhere in the table':
      'ne s’applique pas à unique : un échantillon ne peut pas dire si une valeur se répète ailleurs dans la table',
    'must be a number from {min} to {max}': 'doit être un nombre de {min} à {max}',
    'watermarkColumn: "{name}" is {type}; a watermark column must be a timestamp, a date or a number that only grows':
      'watermarkColumn : « {name} » est de type {type} ; une colonne repère doit être un horodatage, une date ou un nombre qui ne fait que croître',
    'give a min, a max or both': 'indiquez un min, un max ou les deux',
    'must be a number or an ISO date': 'doit être un nombre ou une date ISO',
    'must be of the same kind as min: both numbers or both dates': 'doit être du même type que min : deux nombres ou deux dates',
    'must not be above max': 'ne doit pas dépasser max',

    // Workflows and runs.
    'a workflow with this name already exists': 'un workflow porte déjà ce nom',
    'The workflow "{name}" is deactivated; activate it first': 'Le workflow « {name} » est désactivé ; activez-le d’abord',
    'The workflow "{name}" has no Databricks connection; choose one':
      'Le workflow « {name} » n’a pas de connexion Databricks ; choisissez-en une',
    'The Databricks connection of the workflow "{name}" no longer exists; choose another':
      'La connexion Databricks du workflow « {name} » n’existe plus ; choisissez-en une autre',
    'The connection "{connection}" of the workflow "{workflow}" is not a Databricks connection':
      'La connexion « {connection} » du workflow « {workflow} » n’est pas une connexion Databricks',
    'The Databricks connection "{name}" is deactivated; activate it first':
      'La connexion Databricks « {name} » est désactivée ; activez-la d’abord',
    'The workflow "{name}" names no Databricks job to run; choose one':
      'Le workflow « {name} » n’indique aucun job Databricks à lancer ; choisissez-en un',
    'The workflow "{name}" names "{job}" as its Databricks job, which is not a job id (a number such as 123456789)':
      'Le workflow « {name} » indique « {job} » comme job Databricks, ce qui n’est pas un identifiant de job (un nombre comme 123456789)',
    '"{cron}" in {zone} cannot be used: {reason}': '« {cron} » dans le fuseau {zone} ne peut pas être utilisé : {reason}',
    'This run has already ended ({what})': 'Cette exécution est déjà terminée ({what})',
    succeeded: 'réussie',
    failed: 'échouée',
    canceled: 'annulée',
    'timed out': 'délai dépassé',
    'give at least one task': 'indiquez au moins une tâche',
    '"{name}" is the name of another task': '« {name} » est le nom d’une autre tâche',
    'is the id of another task': 'est l’identifiant d’une autre tâche',
    'no such source/destination pair': 'cette paire source/destination n’existe pas',
    'the source "{name}" has no tables a copy can read': 'la source « {name} » n’a aucune table qu’une copie puisse lire',
    'a copy cannot write to the destination "{name}"; choose a database':
      'une copie ne peut pas écrire dans la destination « {name} » ; choisissez une base de données',
    'SQL tasks need the repository their files come from': 'les tâches SQL ont besoin du dépôt d’où viennent leurs fichiers',
    'must be a git or Bitbucket connection of the company': 'doit être une connexion git ou Bitbucket de l’entreprise',
    'must be a Databricks connection of the company': 'doit être une connexion Databricks de l’entreprise',
    'give the Databricks job to run': 'indiquez le job Databricks à lancer',
    'must be a Slack connection of the company': 'doit être une connexion Slack de l’entreprise',
    'no such table ({ids})': 'aucune table ne correspond ({ids})',
    'name the Bitbucket repository first, as in analytics or analytics/models':
      'indiquez d’abord le dépôt Bitbucket, comme analytics ou analytics/models',
    'must be a time zone such as Europe/Paris': 'doit être un fuseau horaire comme Europe/Paris',
    'must be the number of a Databricks job': 'doit être le numéro d’un job Databricks',
    'must be a list of tasks': 'doit être une liste de tâches',
    'may hold at most {count} tasks': 'peut contenir au plus {count} tâches',
    'must be a table name such as public.orders': 'doit être un nom de table comme public.orders',
    'may hold only letters, digits, - and _': 'ne peut contenir que des lettres, des chiffres, - et _',
    'give the source table ({ table }) or a query ({ query })': 'indiquez la table source ({ table }) ou une requête ({ query })',
    'must be a relative path to a .sql file of the repository': 'doit être le chemin relatif d’un fichier .sql du dépôt',
    'must be destination or source': 'doit valoir destination ou source',
    'must be table ids': 'doit contenir des identifiants de tables',
    'must be a list of table ids': 'doit être une liste d’identifiants de tables',
    'give at least one table': 'indiquez au moins une table',
    'may hold at most 100 tables': 'peut contenir au plus 100 tables',
    'must be email addresses': 'doit contenir des adresses e-mail',
    'must be a list of email addresses': 'doit être une liste d’adresses e-mail',
    'may hold at most 50 addresses': 'peut contenir au plus 50 adresses',
    'must be a cron expression of five fields, such as 0 2 * * *': 'doit être une expression cron de cinq champs, comme 0 2 * * *',
    // A copy task's mode, merge keys and watermark column.
    'Choose how the copy writes: create, replace, append or merge': 'Choisissez comment la copie écrit : create, replace, append ou merge',
    'must be a column name': 'doit être un nom de colonne',
    'must be a list of column names': 'doit être une liste de noms de colonnes',
    'may hold at most {count} columns': 'peut contenir au plus {count} colonnes',
    'A merge needs key columns: choose the source columns that identify a row':
      'Une fusion a besoin de colonnes clés : choisissez les colonnes de la source qui identifient une ligne',
    'Only a merge takes key columns': 'Seule une fusion prend des colonnes clés',
    '"{name}" is named twice': '« {name} » est nommée deux fois',
    'An incremental copy adds to its destination: choose append or merge to use a watermark column':
      'Une copie incrémentale ajoute à sa destination : choisissez append ou merge pour utiliser une colonne de repère',
    'the connection "{name}" holds no tables': 'la connexion « {name} » ne contient pas de tables',
    // How a run ended, as its error (and the message of its failure notice).
    'No reason was given': 'Aucune raison n’a été donnée',
    'Step "{name}" failed: {reason}': 'L’étape « {name} » a échoué : {reason}',
    'The runner failed: {reason}': 'L’exécuteur a échoué : {reason}',
    'The server stopped during the run': 'Le serveur s’est arrêté pendant l’exécution',
    'The workflow was deleted before the run could start': 'Le workflow a été supprimé avant que l’exécution puisse démarrer',
    'The workflow "{name}" was deactivated before the run could start':
      'Le workflow « {name} » a été désactivé avant que l’exécution puisse démarrer',
    'Canceled before it started': 'Annulée avant de démarrer',
    'Canceled by request': 'Annulée sur demande',

    // Reports and dates.
    'this id is not an active user of the company: {ids}': 'cet identifiant n’est pas celui d’un utilisateur actif de l’entreprise : {ids}',
    'these ids are not active users of the company: {ids}':
      'ces identifiants ne sont pas ceux d’utilisateurs actifs de l’entreprise : {ids}',
    'is required when periodEnd is given': 'est obligatoire quand periodEnd est indiqué',
    'must not be in the future': 'ne doit pas être dans le futur',
    'must be after periodStart': 'doit venir après periodStart',
    'a report may cover at most {days} days': 'un rapport peut couvrir au plus {days} jours',
    'choose at least one user': 'choisissez au moins un utilisateur',
    'must be report or list': 'doit valoir report ou list',
    'must be a list of user ids': 'doit être une liste d’identifiants d’utilisateurs',
    'may hold at most {count} users': 'peut contenir au plus {count} utilisateurs',
    "must be a path of the console starting with '/', such as /job-runs":
      'doit être un chemin de la console commençant par « / », comme /job-runs',
    'must be a path of the console, not an address of another site': 'doit être un chemin de la console, pas l’adresse d’un autre site',
    'may not hold spaces, back-slashes or control characters':
      'ne peut contenir ni espaces, ni barres obliques inverses, ni caractères de contrôle',
    'must be a page of the console, not an API address': 'doit être une page de la console, pas une adresse de l’API',
    'is not a valid path': 'n’est pas un chemin valide',
    'must be a date such as 2026-11-01': 'doit être une date comme 2026-11-01',
    'must be a date such as 2026-11-02': 'doit être une date comme 2026-11-02',
    'must be a date such as 2026-11-02, or a time with its offset such as 2026-11-02T09:00:00Z':
      'doit être une date comme 2026-11-02, ou une heure avec son décalage comme 2026-11-02T09:00:00Z',
    'must not be after to': 'ne doit pas venir après to',
    'the range may cover at most 366 days': 'la période peut couvrir au plus 366 jours',

    // Subscription and plans.
    'Plans cannot be bought on this server (it has no Stripe account); ask its operator for a plan grant':
      'Les offres ne peuvent pas être achetées sur ce serveur (il n’a pas de compte Stripe) ; demandez une attribution d’offre à son opérateur',
    'the {plan} plan cannot be bought on this server': 'l’offre {plan} ne peut pas être achetée sur ce serveur',
    'the company is already on the {plan} plan': 'l’entreprise est déjà sur l’offre {plan}',
    'The company pays for the {plan} plan through Stripe; cancel that subscription before applying a plan grant':
      'L’entreprise paie l’offre {plan} via Stripe ; résiliez cet abonnement avant d’appliquer une attribution d’offre',
    'must be a Stripe checkout session id (cs_…)': 'doit être un identifiant de session de paiement Stripe (cs_…)',
    'must be a Stripe customer id (cus_…)': 'doit être un identifiant de client Stripe (cus_…)',
    'is too long to be a plan grant': 'est trop long pour être une attribution d’offre',
    'this plan grant is for the company "{grant}", not for "{company}"':
      'cette attribution d’offre est destinée à l’entreprise « {grant} », pas à « {company} »',
    'this plan grant has already been used': 'cette attribution d’offre a déjà été utilisée',
    "this plan grant was issued before the company's plan last changed ({date}); ask your operator for a new one":
      'cette attribution d’offre a été émise avant le dernier changement d’offre de l’entreprise ({date}) ; demandez-en une nouvelle à votre opérateur',
    'this plan grant expired; ask your operator for a new one':
      'cette attribution d’offre a expiré ; demandez-en une nouvelle à votre opérateur',
    'this plan grant expired on {date} UTC; ask your operator for a new one':
      'cette attribution d’offre a expiré le {date} UTC ; demandez-en une nouvelle à votre opérateur',
    'this is not a plan grant ({claim} does not match)': 'ce n’est pas une attribution d’offre ({claim} ne correspond pas)',
    'this is not a valid plan grant of this server (it is damaged, or was signed elsewhere)':
      'ce n’est pas une attribution d’offre valide de ce serveur (elle est endommagée, ou a été signée ailleurs)',
    'this grant names a plan this server does not know ("{plan}")':
      'cette attribution indique une offre que ce serveur ne connaît pas (« {plan} »)',
    'This server cannot verify Stripe webhooks: STRIPE_WEBHOOK_SECRET is not set':
      'Ce serveur ne peut pas vérifier les webhooks Stripe : STRIPE_WEBHOOK_SECRET n’est pas défini',
    'the header is missing': 'l’en-tête est absent',
    'the event is missing': 'l’événement est absent',
    'Stripe started checkout session {id} without a page to send the payer to':
      'Stripe a ouvert la session de paiement {id} sans page vers laquelle envoyer le payeur',
    "Checkout session {id} sold price {price}, which is none of this server's plans":
      'La session de paiement {id} a vendu le prix {price}, qui ne correspond à aucune offre de ce serveur',
    'Stripe customer {id} already pays for another company': 'Le client Stripe {id} paie déjà pour une autre entreprise',
    "Stripe's subscription {id} has no item to change": 'L’abonnement Stripe {id} n’a aucun article à modifier',
    'Stripe could not be reached to {what}; try again in a moment': 'Impossible de joindre Stripe pour {what} ; réessayez dans un instant',
    'Stripe refused to {what}: {reason}': 'Stripe a refusé de {what} : {reason}',
    'read the subscription': 'lire l’abonnement',
    'change the subscription': 'modifier l’abonnement',
    'start a checkout': 'lancer un paiement',
    'read the checkout session': 'lire la session de paiement',
    // A plan's limit reached: what it allows, and what to do (whole sentences: a count of users
    // or runs on its own would also match other texts).
    'Your plan ({plan}) allows 1 user and the company has {used}. Delete a user or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet 1 utilisateur et l’entreprise en a {used}. Supprimez un utilisateur ou passez à une offre supérieure sur la page Abonnement.',
    'Your plan ({plan}) allows {allowed} users and the company has {used}. Delete a user or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet {allowed} utilisateurs et l’entreprise en a {used}. Supprimez un utilisateur ou passez à une offre supérieure sur la page Abonnement.',
    'Your plan ({plan}) allows 1 workflow and the company has {used}. Delete a workflow or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet 1 workflow et l’entreprise en a {used}. Supprimez un workflow ou passez à une offre supérieure sur la page Abonnement.',
    'Your plan ({plan}) allows {allowed} workflows and the company has {used}. Delete a workflow or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet {allowed} workflows et l’entreprise en a {used}. Supprimez un workflow ou passez à une offre supérieure sur la page Abonnement.',
    'Your plan ({plan}) allows 1 run a month and the company has queued {used} in {month}. Runs can start again on {day} (UTC), or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet 1 exécution par mois et l’entreprise en a déjà mis {used} en file ({month}). Les exécutions pourront reprendre le {day} (UTC) ; vous pouvez aussi passer à une offre supérieure sur la page Abonnement.',
    'Your plan ({plan}) allows {allowed} runs a month and the company has queued {used} in {month}. Runs can start again on {day} (UTC), or upgrade on the Subscription page.':
      'Votre offre ({plan}) permet {allowed} exécutions par mois et l’entreprise en a déjà mis {used} en file ({month}). Les exécutions pourront reprendre le {day} (UTC) ; vous pouvez aussi passer à une offre supérieure sur la page Abonnement.',

    // Company and settings.
    'must be an IANA time zone, such as Europe/Paris or UTC': 'doit être un fuseau horaire IANA, comme Europe/Paris ou UTC',
    'cannot be changed: it is the name users type to sign in':
      'ne peut pas être modifié : c’est le nom que les utilisateurs saisissent pour se connecter',
    'is not a field of the company profile': 'n’est pas un champ du profil de l’entreprise',
    'may not contain line breaks or control characters': 'ne peut contenir ni sauts de ligne ni caractères de contrôle',
    'must be a web address starting with https:// or http://, such as https://acme.example':
      'doit être une adresse web commençant par https:// ou http://, comme https://acme.example',
    'may only contain letters, digits, spaces and hyphens': 'ne peut contenir que des lettres, des chiffres, des espaces et des tirets',
    'must be a two-letter ISO 3166 country code, such as GB or US': 'doit être un code pays ISO 3166 à deux lettres, comme GB ou US',
    'Company host name is required': 'Le nom d’hôte de l’entreprise est obligatoire',
    'Company host name may use lower-case letters, digits and inner hyphens (at most 63 characters)':
      'Le nom d’hôte de l’entreprise peut contenir des minuscules, des chiffres et des tirets internes (63 caractères au plus)',
    'must be a PNG, JPEG or SVG image': 'doit être une image PNG, JPEG ou SVG',
    'an SVG must be UTF-8 text': 'un SVG doit être du texte UTF-8',
    'cannot be true while a new logo is sent': 'ne peut pas valoir true quand un nouveau logo est envoyé',
    'the SVG uses an entity that is not defined: {name}': 'le SVG utilise une entité non définie : {name}',
    'the SVG nests elements more than {count} deep': 'le SVG imbrique des éléments sur plus de {count} niveaux',
    'the SVG could not be read ({reason})': 'le SVG n’a pas pu être lu ({reason})',
    'the SVG is not well-formed XML (line {line}, column {column}: {reason})':
      'le SVG n’est pas un XML bien formé (ligne {line}, colonne {column} : {reason})',
    'an SVG with a DOCTYPE or entity declarations is not accepted':
      'un SVG avec un DOCTYPE ou des déclarations d’entités n’est pas accepté',
    'the SVG has text outside its <svg> element': 'le SVG contient du texte hors de son élément <svg>',
    'the file is XML but not an SVG image (its root element must be <svg>)':
      'le fichier est du XML mais pas une image SVG (son élément racine doit être <svg>)',
    'must be a host name or an IP address such as smtp.example.com': 'doit être un nom d’hôte ou une adresse IP comme smtp.example.com',
    'must not contain line breaks, quotes or angle brackets': 'ne doit contenir ni sauts de ligne, ni guillemets, ni chevrons',
    'is required when an SMTP host is set': 'est obligatoire quand un hôte SMTP est défini',
    'is required with a username': 'est obligatoire avec un nom d’utilisateur',
    'must be a list of domain names': 'doit être une liste de noms de domaine',
    'may hold at most {count} domains': 'peut contenir au plus {count} domaines',
    'is required to send a test mail (the SMTP server to send it through)':
      'est obligatoire pour envoyer un e-mail de test (le serveur SMTP par lequel l’envoyer)',
    'the saved password cannot be read (was the instance secret changed?); enter it again':
      'le mot de passe enregistré ne peut pas être lu (le secret de l’instance a-t-il changé ?) ; saisissez-le à nouveau',
    // Lists, their columns and saved views.
    'may hold field names of at most 100 characters': 'peut contenir des noms de champs de 100 caractères au plus',
    'may hold at most 50 fields': 'peut contenir au plus 50 champs',
    'must be at most 10,000 characters as JSON': 'doit faire au plus 10 000 caractères en JSON',
    'may hold names of at most 100 characters': 'peut contenir des noms de 100 caractères au plus',
    'may not hold an empty name': 'ne peut pas contenir de nom vide',
    'may hold at most 100 columns': 'peut contenir au plus 100 colonnes',
    'must be "user" or "tenant"': 'doit valoir « user » ou « tenant »',
    'You have {count} views of this list: delete one first': 'Vous avez {count} vues de cette liste : supprimez-en une d’abord',
    'you already have a view of this list with this name': 'vous avez déjà une vue de cette liste portant ce nom',

    // Uploads and forms.
    'must be an object of {what}': 'doit être un objet de {what}',
    'profile fields': 'champs du profil',
    'company profile fields': 'champs du profil de l’entreprise',
    'send the {what} as a file of a multipart/form-data body (or {flag}: true to remove it)':
      'envoyez {what} comme fichier d’un corps multipart/form-data (ou {flag}: true pour retirer l’image actuelle)',
    logo: 'le logo',
    picture: 'la photo',
    'must be at most {size} KB': 'doit faire au plus {size} Ko',
    'must be at most {size} MB': 'doit faire au plus {size} Mo',
    'only one file, named "{name}", may be sent': 'un seul fichier, nommé « {name} », peut être envoyé',
    'only one file may be sent': 'un seul fichier peut être envoyé',
    'the file is empty': 'le fichier est vide',
    'files are not accepted here': 'les fichiers ne sont pas acceptés ici',
    'The form has too many fields (at most {count})': 'Le formulaire a trop de champs ({count} au plus)',
    'a form may hold at most {count} fields': 'un formulaire peut contenir au plus {count} champs',
    'a form field has a name that is not allowed': 'un champ du formulaire a un nom non autorisé',
    'a field name is not allowed': 'un nom de champ n’est pas autorisé',
    'the multipart form could not be read': 'le formulaire multipart n’a pas pu être lu',
    'the multipart form could not be read ({reason})': 'le formulaire multipart n’a pas pu être lu ({reason})',
    'The form is too large (at most {size} KB)': 'Le formulaire est trop volumineux ({size} Ko au plus)',

    // Validation problems.
    'is required': 'est obligatoire',
    'must be text': 'doit être du texte',
    'must be a string': 'doit être une chaîne de caractères',
    'must be a string or a list of strings': 'doit être une chaîne ou une liste de chaînes',
    'must be at most {n} characters': 'doit comporter au plus {n} caractères',
    'must be at least {n} characters': 'doit comporter au moins {n} caractères',
    'is too long': 'dépasse la longueur autorisée',
    'must be a number': 'doit être un nombre',
    'must be a whole number': 'doit être un nombre entier',
    'must be 0 or more': 'doit valoir 0 ou plus',
    'must be at least {min}': 'doit valoir au moins {min}',
    'must be at most {max}': 'doit valoir au plus {max}',
    'is too large': 'dépasse la valeur autorisée',
    'must be true or false': 'doit valoir true ou false',
    'must be one of {values}': 'doit valoir l’une de ces valeurs : {values}',
    'must be ASC or DESC': 'doit valoir ASC ou DESC',
    'must be a valid id': 'doit être un identifiant valide',
    'must be a valid id or a list of ids': 'doit être un identifiant valide ou une liste d’identifiants',
    'must be a valid email address': 'doit être une adresse e-mail valide',

    // Notifications.
    'Workflow "{name}" failed': 'Le workflow « {name} » a échoué',
    'Workflow "{name}" timed out': 'Le workflow « {name} » a dépassé son délai maximal',
    '{name} accepted the invitation': '{name} a accepté l’invitation',
    '{email} has activated their account.': '{email} a activé son compte.',
    '{name} shared "{title}" with you': '{name} a partagé « {title} » avec vous',
    'Your role has changed': 'Votre rôle a changé',
    'Your role is now {role} (it was {previous}).': 'Votre rôle est désormais {role} (auparavant {previous}).',
    'Your role is now {role}.': 'Votre rôle est désormais {role}.',
    'What your role "{role}" allows has changed. It applies from your next action.':
      'Ce que permet votre rôle « {role} » a changé. Cela s’applique dès votre prochaine action.',
    'The pages of your role "{role}" have changed. Your menu shows them from your next sign-in.':
      'Les pages de votre rôle « {role} » ont changé. Votre menu les affiche dès votre prochaine connexion.',
    'Your access has changed': 'Vos accès ont changé',
    'An administrator changed what you may do in the console. It applies from your next action.':
      'Un administrateur a modifié ce que vous pouvez faire dans la console. Cela s’applique dès votre prochaine action.',
    'The payment for the {plan} plan failed': 'Le paiement de l’offre {plan} a échoué',
    'Stripe could not take the payment of the latest invoice. Update the payment method with Stripe: the plan stays in force while Stripe tries again.':
      'Stripe n’a pas pu encaisser le paiement de la dernière facture. Mettez à jour le moyen de paiement chez Stripe : l’offre reste en vigueur pendant que Stripe réessaie.',
    'Scheduled runs are skipped': 'Les exécutions planifiées sont suspendues',
    'Scheduled runs are skipped until {date}': 'Les exécutions planifiées sont suspendues jusqu’au {date}',
    'The schedule of workflow "{name}" did not start a run, nor will other schedules this month. {reason}':
      'La planification du workflow « {name} » n’a pas lancé d’exécution, et les autres planifications n’en lanceront pas non plus ce mois-ci. {reason}',
  },
};
