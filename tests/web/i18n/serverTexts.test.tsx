import { act, render, screen } from '@testing-library/react';
import { alerts } from '../../../providers/alerts';
import { serverTextsFr } from '../../../providers/i18n/fr/server-texts';
import { compileServerTexts, loadServerTexts, localiseServerText, translateServerText } from '../../../providers/i18n/serverTexts';
import { setShownLocale } from '../../../providers/i18n/userLocale';
import { i18nProvider } from '../../../src/app/providers';
import { failureText } from '../../../src/framework/feedback';
import { AlertBar } from '../../../src/shell/AlertBar';

/** What the server writes in English reaches a French user in French. */

const sample = compileServerTexts({
  fieldSeparator: ' : ',
  listSeparator: ' ; ',
  texts: {
    '{noun} not found': '{noun} introuvable',
    Workflow: 'Le workflow',
    'is required': 'est obligatoire',
    'must be at most {n} characters': 'doit comporter au plus {n} caractères',
    'Workflow "{name}" failed': 'Le workflow « {name} » a échoué',
    'The connection "{name}" is deactivated; activate it first': 'La connexion « {name} » est désactivée ; activez-la d’abord',
  },
});

describe('a server text worded by a catalogue', () => {
  it('is found whole, or by a pattern whose variable parts are kept as sent', () => {
    expect(translateServerText('is required', sample)).toBe('est obligatoire');
    expect(translateServerText('Workflow "Nightly copy" failed', sample)).toBe('Le workflow « Nightly copy » a échoué');
    expect(translateServerText('must be at most 300 characters', sample)).toBe('doit comporter au plus 300 caractères');
  });

  it('words a placeholder that holds a server text itself, and keeps any other as sent', () => {
    expect(translateServerText('Workflow not found', sample)).toBe('Le workflow introuvable');
    // A workflow named like a known text keeps its name.
    expect(translateServerText('Workflow "is required" failed', sample)).toBe('Le workflow « is required » a échoué');
  });

  it('words each problem of a validation answer and keeps the field paths', () => {
    expect(translateServerText('name: must be at most 3 characters; tasks.0.type: is required', sample)).toBe(
      'name : doit comporter au plus 3 caractères ; tasks.0.type : est obligatoire',
    );
  });

  it('takes a sentence that holds "; " as one text', () => {
    expect(translateServerText('The connection "orders; eu" is deactivated; activate it first', sample)).toBe(
      'La connexion « orders; eu » est désactivée ; activez-la d’abord',
    );
  });

  it('knows nothing it was not given: an unknown text, or one unknown problem of several', () => {
    expect(translateServerText('Something else went wrong', sample)).toBeNull();
    expect(translateServerText('name: is required; colour: is not a setting', sample)).toBeNull();
  });
});

describe('the French catalogue of server texts, in the console', () => {
  afterEach(async () => {
    setShownLocale(null);
    act(() => alerts.clear());
    await i18nProvider.changeLocale('en');
  });

  it('is loaded with French and words what the alert bar, failures and toasts show', async () => {
    await loadServerTexts('fr');
    expect(localiseServerText('Invalid email, password or company host name', 'fr')).toBe(
      serverTextsFr.texts['Invalid email, password or company host name'],
    );
    expect(localiseServerText('Invalid email, password or company host name', 'en')).toBe('Invalid email, password or company host name');

    setShownLocale('fr');
    render(<AlertBar />);
    act(() => alerts.error('name: is required'));
    expect(screen.getByRole('alert')).toHaveTextContent('name : est obligatoire');
    expect(failureText(new Error('Workflow not found'))).toBe('Workflow introuvable');

    await i18nProvider.changeLocale('fr');
    expect(i18nProvider.translate('Record not found', { _: 'Record not found' })).toBe('Enregistrement introuvable');
    // Catalogue keys are still the console's own.
    expect(i18nProvider.translate('ra.action.save')).toBe('Enregistrer');
  });

  it('leaves a text it does not know as the server wrote it', async () => {
    await loadServerTexts('fr');
    setShownLocale('fr');
    render(<AlertBar />);
    act(() => alerts.error('relation "public.orders" does not exist'));
    expect(screen.getByRole('alert')).toHaveTextContent('relation "public.orders" does not exist');
  });
});
