import type { MouseEvent } from 'react';

/**
 * The props of a button whose action is under way: it says so (`aria-disabled`) and a press does
 * nothing (a submit's too: the click's default is what submits, Enter in a field included), but it
 * keeps the focus. `disabled` would drop the focus to the page in Chromium the moment the action
 * starts, and leave it there when a refusal keeps the form: a keyboard or screen-reader user then
 * starts again from the top (docs/decisions/045-account-screens.md). Styled as disabled.
 */
export const busyButton = (busy: boolean, onClick?: (event: MouseEvent<HTMLButtonElement>) => void) => ({
  'aria-disabled': busy ? (true as const) : undefined,
  onClick: (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  },
});
