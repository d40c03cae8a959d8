import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

/**
 * The dialog `name` is held open while its save is in flight: Cancel and × are disabled, and Escape
 * and a click on the backdrop leave it where it is (docs/decisions/045-account-screens.md).
 */
export const expectHeldOpen = async (user: UserEvent, name: string): Promise<void> => {
  const dialog = within(screen.getByRole('dialog', { name }));
  expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  expect(dialog.getByRole('button', { name: 'Close dialog' })).toBeDisabled();
  await user.keyboard('{Escape}');
  const backdrop = document.querySelector('.modal__backdrop');
  if (!(backdrop instanceof HTMLElement)) throw new Error('No backdrop');
  await user.click(backdrop);
  expect(screen.getByRole('dialog', { name })).toBeInTheDocument();
};
