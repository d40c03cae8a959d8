/**
 * Dismissing a message box removes the button that had the focus: the focus goes on to the next
 * thing on the page (WCAG 2.4.3), never to the page's body, from where a keyboard or screen-reader
 * user would start again at the top.
 */
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert } from '../../../../web/src/components/alert';

function Page({ after = true, inDialog = false }: { after?: boolean; inDialog?: boolean }) {
  const [shown, setShown] = useState(true);
  const content = (
    <>
      <button type="button">Before</button>
      {shown && (
        <Alert tone="error" onDismiss={() => setShown(false)} dismissLabel="Dismiss error">
          <p>Could not delete the entry. Please try again.</p>
          <a href="#help">Help</a>
        </Alert>
      )}
      <button type="button" disabled>
        Disabled
      </button>
      <div hidden>
        <button type="button">Hidden</button>
      </div>
      {after && <input aria-label="After" />}
    </>
  );
  return (
    <>
      {inDialog ? <div role="dialog">{content}</div> : content}
      <button type="button">Behind the dialog</button>
    </>
  );
}

describe('a dismissed message box', () => {
  it('hands the focus to the next control on the page, skipping disabled and hidden ones', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'After' })).toHaveFocus();
  });

  it('hands it back to the control before when nothing follows, and never behind its dialog', async () => {
    const user = userEvent.setup();
    render(<Page after={false} inDialog />);
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dismiss error' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Before' })).toHaveFocus();
  });

  it('leaves the focus where it is when it was elsewhere', async () => {
    render(<Page />);
    const before = screen.getByRole('button', { name: 'Before' });
    before.focus();
    screen.getByRole('button', { name: 'Dismiss error' }).click();
    expect(await screen.findByRole('button', { name: 'Before' })).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
