import type { Locale } from '../../common/locales';
import type { RUN_STATUSES } from '../../common/schemas/workflows';
import type { QUALITY_STATUSES } from './figures';

type RunStatus = (typeof RUN_STATUSES)[number];
type QualityStatus = (typeof QUALITY_STATUSES)[number];

/** Every word a report writes (its mail, CSV and PDF), per language. */
export interface ReportTexts {
  weekly: string;
  report: string;
  /** "Weekly report of Acme: 2 Nov 2026 – 8 Nov 2026". */
  heading: (title: string, company: string, period: string) => string;
  timesIn: (zone: string) => string;
  madeOn: (when: string) => string;
  attached: (fileName: string | null) => string;
  everyReport: (company: string, link: string) => string;
  status: Record<RunStatus | QualityStatus, string>;
  runsWith: (status: string) => string;
  checksWith: (status: string) => string;
  sections: { runs: string; quality: string; security: string; usage: string };
  figures: Record<
    | 'runs'
    | 'rowsCopied'
    | 'checkRuns'
    | 'checks'
    | 'signIns'
    | 'failedSignIns'
    | 'blocked'
    | 'failedCodes'
    | 'newSessions'
    | 'impersonations'
    | 'addresses'
    | 'activeUsers'
    | 'newUsers'
    | 'connections'
    | 'connectionsAdded'
    | 'tables'
    | 'tablesAdded'
    | 'workflows'
    | 'workflowsAdded'
    | 'changes'
    | 'apiKeyChanges'
    | 'apiKeyRuns',
    string
  >;
  failingWorkflows: { caption: string; workflow: string; failedRuns: string; empty: string };
  failedChecks: { caption: string; table: string; rule: string; failures: string; empty: string };
  csv: { report: string; title: string; company: string; period: string; start: string; end: string; zone: string; madeAt: string };
  /** Numbers as the language writes them (a PDF's built-in font has no narrow no-break space: a plain one stands in). */
  numberLocale: string;
}

export const REPORT_TEXTS: Record<Locale, ReportTexts> = {
  en: {
    weekly: 'Weekly report',
    report: 'Report',
    heading: (title, company, period) => `${title} of ${company}: ${period}`,
    timesIn: (zone) => `Times are in ${zone}.`,
    madeOn: (when) => `Made on ${when} UTC by DataOps Console`,
    attached: (fileName) => (fileName ? `The figures are attached as ${fileName}.` : 'The figures are attached.'),
    everyReport: (company, link) => `Every report of ${company}: ${link}`,
    status: {
      queued: 'Queued',
      running: 'Running',
      succeeded: 'Succeeded',
      failed: 'Failed',
      canceled: 'Canceled',
      timed_out: 'Timed out',
      passed: 'Passed',
      warned: 'Warned',
      error: 'Could not be measured',
    },
    runsWith: (status) => `Runs ${status.toLowerCase()}`,
    checksWith: (status) => `Checks ${status.toLowerCase()}`,
    sections: { runs: 'Job runs', quality: 'Data quality', security: 'Security', usage: 'Usage' },
    figures: {
      runs: 'Runs',
      rowsCopied: 'Rows copied',
      checkRuns: 'Check runs',
      checks: 'Checks',
      signIns: 'Sign-ins',
      failedSignIns: 'Failed sign-ins',
      blocked: 'Blocked attempts (too many failures)',
      failedCodes: 'Failed two-factor codes',
      newSessions: 'New sessions',
      impersonations: 'Impersonation sessions',
      addresses: 'Distinct addresses',
      activeUsers: 'Active users (signed in)',
      newUsers: 'New users',
      connections: 'Connections',
      connectionsAdded: 'Connections added',
      tables: 'Tables',
      tablesAdded: 'Tables added',
      workflows: 'Workflows',
      workflowsAdded: 'Workflows added',
      changes: 'Changes recorded',
      apiKeyChanges: 'Changes made with API keys',
      apiKeyRuns: 'Runs started with API keys',
    },
    failingWorkflows: { caption: 'Workflows that failed most', workflow: 'Workflow', failedRuns: 'Failed runs', empty: 'No run failed.' },
    failedChecks: {
      caption: 'Failed checks by table and rule',
      table: 'Table',
      rule: 'Rule',
      failures: 'Failures',
      empty: 'No check failed.',
    },
    csv: {
      report: 'Report',
      title: 'Title',
      company: 'Company',
      period: 'Period',
      start: 'Period start',
      end: 'Period end (exclusive)',
      zone: 'Time zone',
      madeAt: 'Made at',
    },
    numberLocale: 'en-GB',
  },
  fr: {
    weekly: 'Rapport hebdomadaire',
    report: 'Rapport',
    heading: (title, company, period) => `${title} de ${company} : ${period}`,
    timesIn: (zone) => `Heures en ${zone}.`,
    madeOn: (when) => `Créé le ${when} UTC par DataOps Console`,
    attached: (fileName) => (fileName ? `Les chiffres sont joints dans ${fileName}.` : 'Les chiffres sont joints.'),
    everyReport: (company, link) => `Tous les rapports de ${company} : ${link}`,
    status: {
      queued: 'En file',
      running: 'En cours',
      succeeded: 'Réussies',
      failed: 'En échec',
      canceled: 'Annulées',
      timed_out: 'Délai dépassé',
      passed: 'Réussite',
      warned: 'Avertissement',
      error: 'Mesure impossible',
    },
    runsWith: (status) => `Passes : ${status.toLowerCase()}`,
    checksWith: (status) => `Contrôles : ${status.toLowerCase()}`,
    sections: { runs: 'Exécutions', quality: 'Qualité des données', security: 'Sécurité', usage: 'Usage' },
    figures: {
      runs: 'Exécutions',
      rowsCopied: 'Lignes copiées',
      checkRuns: 'Passes de contrôle',
      checks: 'Contrôles',
      signIns: 'Connexions',
      failedSignIns: 'Connexions échouées',
      blocked: 'Tentatives bloquées (trop d’échecs)',
      failedCodes: 'Codes à deux facteurs erronés',
      newSessions: 'Nouvelles sessions',
      impersonations: 'Sessions d’emprunt d’identité',
      addresses: 'Adresses distinctes',
      activeUsers: 'Utilisateurs actifs (connectés)',
      newUsers: 'Nouveaux utilisateurs',
      connections: 'Connexions aux sources',
      connectionsAdded: 'Connexions ajoutées',
      tables: 'Tables',
      tablesAdded: 'Tables ajoutées',
      workflows: 'Workflows',
      workflowsAdded: 'Workflows ajoutés',
      changes: 'Modifications enregistrées',
      apiKeyChanges: 'Modifications faites avec des clés d’API',
      apiKeyRuns: 'Exécutions lancées avec des clés d’API',
    },
    failingWorkflows: {
      caption: 'Workflows les plus en échec',
      workflow: 'Workflow',
      failedRuns: 'Exécutions échouées',
      empty: 'Aucune exécution n’a échoué.',
    },
    failedChecks: {
      caption: 'Contrôles échoués par table et règle',
      table: 'Table',
      rule: 'Règle',
      failures: 'Échecs',
      empty: 'Aucun contrôle n’a échoué.',
    },
    csv: {
      report: 'Rapport',
      title: 'Titre',
      company: 'Entreprise',
      period: 'Période',
      start: 'Début de période',
      end: 'Fin de période (exclue)',
      zone: 'Fuseau horaire',
      madeAt: 'Créé le',
    },
    numberLocale: 'fr-FR',
  },
};
