import { useEffect, useId, type ReactNode } from 'react';
import { AlertBar } from '../../shell/AlertBar';
import { t } from '../i18n';

/** The card every authentication screen sits in: product mark (and the company's, when known), title, alert bar, content. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
  companyMark,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  companyMark?: ReactNode;
}) {
  const titleId = useId();
  useEffect(() => {
    document.title = `${title} · ${t('auth.product')}`;
  }, [title]);

  return (
    <div className="auth-page">
      <main className="auth-card" aria-labelledby={titleId}>
        <ProductMark />
        {companyMark}
        <h1 className="auth-title" id={titleId}>
          {title}
        </h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        <AlertBar />
        {children}
      </main>
      {footer && <nav className="auth-footer">{footer}</nav>}
    </div>
  );
}

function ProductMark() {
  return (
    <div className="auth-mark">
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--auth-accent)" />
        <ellipse cx="16" cy="10" rx="8" ry="3" fill="none" stroke="#fff" strokeWidth="2" />
        <path d="M8 10v12c0 1.7 3.6 3 8 3s8-1.3 8-3V10M8 16c0 1.7 3.6 3 8 3s8-1.3 8-3" fill="none" stroke="#fff" strokeWidth="2" />
      </svg>
      <span className="auth-mark-name">{t('auth.product')}</span>
    </div>
  );
}
