import type { ReactNode, Ref } from 'react';

interface EmptyStateProps {
  title?: string;
  children: ReactNode;
  /**
   * Given by a list whose last item can be removed (`useKeepFocusIn`): the empty state takes the
   * list's place, and keyboard focus with it, rather than falling to the top of the page.
   */
  ref?: Ref<HTMLDivElement>;
}

export function EmptyState({ title, children, ref }: EmptyStateProps) {
  return (
    <div className="empty-state" ref={ref} tabIndex={ref ? -1 : undefined}>
      {title && <p className="empty-state__title">{title}</p>}
      <p className="empty-state__text">{children}</p>
    </div>
  );
}
