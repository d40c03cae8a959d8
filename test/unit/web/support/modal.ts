import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { expectBusy } from './busy';

/**
 * The dialog `name` is held open while its save is in flight: Cancel and × are busy (pressing them does
 * nothing, and they keep the focus), and Escape and a click on the backdrop leave it where it is
 * (docs/decisions/045-account-screens.md).
 */
export const expectHeldOpen = async (user: UserEvent, name: string): Promise<void> => {
  const dialog = within(screen.getByRole('dialog', { name }));
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  const close = dialog.getByRole('button', { name: 'Close dialog' });
  expectBusy(cancel);
  expectBusy(close);
  await user.click(cancel);
  await user.click(close);
  await user.keyboard('{Escape}');
  const backdrop = document.querySelector('.modal__backdrop');
  if (!(backdrop instanceof HTMLElement)) throw new Error('No backdrop');
  await user.click(backdrop);
  expect(screen.getByRole('dialog', { name })).toBeInTheDocument();
};
