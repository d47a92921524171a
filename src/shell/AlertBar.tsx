import { alerts } from '../../providers/alerts';
import { useEffect } from 'react';
import { loadServerTexts, localiseServerText } from '../../providers/i18n/serverTexts';
import { shownLocale } from '../../providers/i18n/userLocale';
import { translate } from './translate';
import { useAlert } from './useAlert';
import './alert-bar.css';

/**
 * The alert bar of spec section 4: a slim progress line while a call runs, a green
 * success or a red danger message after it. Place one per screen; it is cleared on every
 * route change by the shell. A message the server wrote is shown in the user's language.
 */
export function AlertBar({ className }: { className?: string }) {
  const { type, message } = useAlert();
  // Every screen has one: the server's texts in the language shown are loaded with the screen.
  useEffect(() => void loadServerTexts(shownLocale()), []);
  if (!type) return null;
  const classes = ['alert-bar', `alert-${type}`, className].filter(Boolean).join(' ');

  if (type === 'loading') {
    return (
      <div className={classes} role="status" aria-live="polite">
        <span className="alert-progress" aria-hidden="true" />
        <span className="alert-text">{message || translate('shell.pleaseWait')}</span>
      </div>
    );
  }
  return (
    <div className={classes} role="alert">
      <span className="alert-text">{localiseServerText(message, shownLocale())}</span>
      <button type="button" className="alert-dismiss" aria-label={translate('shell.dismiss')} onClick={alerts.clear}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
