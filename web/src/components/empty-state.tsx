import { useId, type ReactNode, type Ref } from 'react';

interface EmptyStateProps {
  title?: string;
  children: ReactNode;
  /**
   * Given by a list whose last item can be removed (`useKeepFocusIn`), or whose 'Load more' can leave
   * (`useKeepFocusAfterMore`): the empty state takes the list's place, and keyboard focus with it,
   * rather than focus falling to the top of the page. It is then a group named by its text, so a
   * screen reader says what took the list's place.
   */
  ref?: Ref<HTMLDivElement>;
}

export function EmptyState({ title, children, ref }: EmptyStateProps) {
  const textId = useId();
  return (
    <div
      className="empty-state"
      {...(ref && { ref, tabIndex: -1, role: 'group', 'aria-labelledby': textId })}
    >
      {title && <p className="empty-state__title">{title}</p>}
      <p className="empty-state__text" id={textId}>
        {children}
      </p>
    </div>
  );
}
