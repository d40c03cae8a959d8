import { useEffect, useRef, type RefObject } from 'react';

/**
 * When the element that had focus inside `watched` has left the page and focus fell to the page's
 * body, focus moves to `target`. Checked whenever `changed` changes.
 */
const useMoveLostFocus = (
  watched: RefObject<HTMLElement | null>,
  target: RefObject<HTMLElement | null>,
  changed: unknown,
): void => {
  const lastFocused = useRef<Element | null>(null);
  useEffect(() => {
    const element = watched.current;
    if (!element) return;
    const remember = (event: FocusEvent) => {
      lastFocused.current = event.target as Element;
    };
    // Focus that moved to another element outside is forgotten. Focus that went nowhere (to the page,
    // or to the window's confirm prompt, after which the browser gives it back) keeps its claim: the
    // element may be about to leave with it.
    const forget = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (next instanceof Node && !element.contains(next)) lastFocused.current = null;
    };
    element.addEventListener('focusin', remember);
    element.addEventListener('focusout', forget);
    return () => {
      element.removeEventListener('focusin', remember);
      element.removeEventListener('focusout', forget);
    };
  });
  useEffect(() => {
    const lost = lastFocused.current;
    if (!lost || lost.isConnected) return;
    lastFocused.current = null;
    const active = document.activeElement;
    if (active === null || active === document.body) target.current?.focus();
  }, [target, changed]);
};

/**
 * Keeps keyboard focus in a list whose items can be removed: when the element that had focus inside
 * `container` has left the page (its row was deleted) and focus fell to the page's body, focus moves
 * to the container itself (give it `tabIndex={-1}` and a name), so a keyboard or screen-reader user
 * goes on from the list rather than from the top of the page (WCAG 2.4.3). Checked whenever `items`
 * changes.
 */
export const useKeepFocusIn = (container: RefObject<HTMLElement | null>, items: unknown): void =>
  useMoveLostFocus(container, container, items);

/**
 * The same for a list's 'Load more' or 'Show more' button, which leaves once there is nothing more:
 * if it had the focus, focus moves to `list`, the list it made longer (focusable and named, or the
 * empty state in its place), so reading goes on from the list, not from the top of the page. `more`:
 * whether the button is shown. Give the returned ref to the button.
 */
export const useKeepFocusAfterMore = (
  list: RefObject<HTMLElement | null>,
  more: boolean,
): RefObject<HTMLButtonElement | null> => {
  const button = useRef<HTMLButtonElement>(null);
  useMoveLostFocus(button, list, more);
  return button;
};
