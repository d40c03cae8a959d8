import { useEffect, type ReactNode } from 'react';
import { APP_NAME } from '../config/brand';

interface PageHeaderProps {
  title: string;
  /**
   * The browser tab's name when the h1 names a person: the tab's title stays in the browser's history
   * (and a synced one) after sign-out, where the next user of a shared computer would read whose page
   * it was.
   */
  tabTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** The page's h1's id: the dashboard's `main` is named by it. */
export const PAGE_TITLE_ID = 'page-title';

/** The h1 of a dashboard page; also names the browser tab and the `main` landmark. */
export function PageHeader({ title, tabTitle = title, description, actions }: PageHeaderProps) {
  useDocumentTitle(tabTitle);
  return (
    <div className="page-header">
      <div>
        <h1 id={PAGE_TITLE_ID} className="page-header__title">
          {title}
        </h1>
        {description && <p className="page-header__description">{description}</p>}
      </div>
      {actions && <div className="page-header__actions">{actions}</div>}
    </div>
  );
}

export const useDocumentTitle = (title: string): void => {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
};
