import { useEffect, useEffectEvent, type RefObject } from 'react';
import { tabbableIn } from '../alert';

interface FocusTrapOptions {
  /** Called on Escape; omit to ignore Escape (a dialog that must be completed). */
  onEscape?: (() => void) | undefined;
  /** Where focus goes back to when the trap ends; defaults to whatever had focus before. */
  returnFocusTo?: RefObject<HTMLElement | null> | undefined;
}

/**
 * Keeps keyboard focus inside `container` while active: focuses the element marked
 * `data-autofocus` (or the first focusable one, or the container), cycles Tab and Shift+Tab,
 * handles Escape, and gives focus back when it ends (to the nearest focusable container of what had
 * it, if that has gone).
 */
export const useFocusTrap = (
  container: RefObject<HTMLElement | null>,
  active: boolean,
  { onEscape, returnFocusTo }: FocusTrapOptions = {},
): void => {
  const hasEscape = onEscape !== undefined;
  const escape = useEffectEvent(() => onEscape?.());
  const returnTarget = useEffectEvent(() => returnFocusTo?.current ?? null);

  useEffect(() => {
    const root = container.current;
    if (!active || !root) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // What opened the dialog may leave while it is open (an action the dialog made pointless): focus
    // then goes to the nearest container around it that takes focus (a table's region), not the page.
    const around = previous?.parentElement?.closest<HTMLElement>('[tabindex]') ?? null;
    const initial = root.querySelector<HTMLElement>('[data-autofocus]') ?? tabbableIn(root)[0] ?? root;
    initial.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && hasEscape) {
        event.stopPropagation();
        escape();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = tabbableIn(root);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      const current = document.activeElement;
      if (event.shiftKey && (current === first || !root.contains(current))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (current === last || !root.contains(current))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const target = returnTarget();
      if (target?.isConnected) target.focus();
      else if (previous?.isConnected) previous.focus();
      else if (around?.isConnected) around.focus();
    };
  }, [active, container, hasEscape]);
};
