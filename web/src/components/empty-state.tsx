import type { ReactNode } from 'react';

interface EmptyStateProps {
  title?: string;
  children: ReactNode;
}

export function EmptyState({ title, children }: EmptyStateProps) {
  return (
    <div className="empty-state">
      {title && <p className="empty-state__title">{title}</p>}
      <p className="empty-state__text">{children}</p>
    </div>
  );
}
