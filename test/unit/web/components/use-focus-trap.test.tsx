/**
 * A dialog keeps the keyboard inside it: Tab from its last control goes to its first, Shift+Tab from
 * its first to its last. "Last" and "first" are what the Tab key can reach: a control under a hidden
 * or inert part of the dialog is not one, or Tab would leave the dialog from the real last control.
 */
import { useRef } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useFocusTrap } from '../../../../web/src/components/overlay/use-focus-trap';

function Page() {
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, true);
  return (
    <>
      <button type="button">Behind, before</button>
      <div ref={panel} role="dialog" aria-label="Edit entry" tabIndex={-1}>
        <div hidden>
          <button type="button">Hidden first</button>
        </div>
        <button type="button">First</button>
        <input aria-label="Value" />
        <button type="button">Last</button>
        <div hidden>
          <button type="button">Hidden last</button>
        </div>
        <div inert>
          <a href="#more">Inert last</a>
        </div>
      </div>
      <button type="button">Behind, after</button>
    </>
  );
}

describe('the focus trap of a dialog', () => {
  it('starts on the first control the Tab key reaches, not one under a hidden part', () => {
    render(<Page />);
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
  });

  it('takes Tab from the last reachable control back to the first, past hidden and inert parts', async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole('button', { name: 'Last' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
  });

  it('takes Shift+Tab from the first reachable control to the last, past hidden and inert parts', async () => {
    const user = userEvent.setup();
    render(<Page />);
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
  });
});
