import { expect } from 'vitest';

/**
 * A button whose action is under way (`busyButton`): said to be unavailable, yet not `disabled`, so it
 * keeps the focus.
 */
export const expectBusy = (button: HTMLElement): void => {
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).toBeEnabled();
};

/** A button that can be pressed: neither busy nor disabled. */
export const expectNotBusy = (button: HTMLElement): void => {
  expect(button).not.toHaveAttribute('aria-disabled');
  expect(button).toBeEnabled();
};
