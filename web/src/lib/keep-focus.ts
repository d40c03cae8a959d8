import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps keyboard focus in a list whose items can be removed: when the element that had focus inside
 * `container` has left the page (its row was deleted) and focus fell to the page's body, focus moves
 * to the container itself (give it `tabIndex={-1}` and a name), so a keyboard or screen-reader user
 * goes on from the list rather than from the top of the page (WCAG 2.4.3). Checked whenever `items`
 * changes.
 */
export const useKeepFocusIn = (container: RefObject<HTMLElement | null>, items: unknown): void => {
  const lastFocused = useRef<Element | null>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const remember = (event: FocusEvent) => {
      lastFocused.current = event.target as Element;
    };
    // Focus that moved to another element outside the list is forgotten. Focus that went nowhere (to
    // the page, or to the window's confirm prompt, after which the browser gives it back) keeps its
    // claim: the row may be about to leave with it.
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
    if (active === null || active === document.body) container.current?.focus();
  }, [container, items]);
};
