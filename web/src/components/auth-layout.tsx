import type { ReactNode } from 'react';
import { APP_NAME } from '../config/brand';
import { Logo } from './icon';
import { useDocumentTitle } from './page-header';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The calm, centred card the public screens (/signin, /activate, /unauthorized) share. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  useDocumentTitle(title);
  return (
    <div className="auth-layout">
      <main className="auth-card">
        <div className="auth-card__brand">
          <Logo />
          <span>{APP_NAME}</span>
        </div>
        <h1 className="auth-card__title">{title}</h1>
        {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
        {children}
        {footer && <div className="auth-card__footer">{footer}</div>}
      </main>
    </div>
  );
}
