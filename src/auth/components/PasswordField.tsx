import { useState } from 'react';
import { t } from '../i18n';
import { TextField, type TextFieldProps } from './TextField';

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'adornment'>) {
  const [visible, setVisible] = useState(false);
  const toggle = (
    <button
      type="button"
      className="auth-reveal"
      aria-label={visible ? t('auth.fields.hidePassword') : t('auth.fields.showPassword')}
      aria-pressed={visible}
      onClick={() => setVisible((shown) => !shown)}
    >
      <EyeIcon crossed={visible} />
    </button>
  );
  return <TextField {...props} type={visible ? 'text' : 'password'} spellCheck={false} autoCapitalize="none" adornment={toggle} />;
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
      {crossed && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />}
    </svg>
  );
}
