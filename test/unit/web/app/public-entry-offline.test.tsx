/**
 * The public entry when /activate's own chunk cannot be fetched (the network dropped, or a deploy
 * replaced the chunk): the error screen with its Reload, never a blank root or a prerendered screen
 * that cannot be used (docs/decisions/060-activate-alone.md). A file of its own: the failed import
 * stays failed for the module graph of the file.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicEntry } from '../../../../web/src/app/public-entry';
import { reloadPage } from '../../../../web/src/lib/browser';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));
vi.mock('../../../../web/src/lib/browser', () => ({ reloadPage: vi.fn(), loadPage: vi.fn() }));
vi.mock('../../../../web/src/app/public-activation', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const open = (path: string) => {
  window.history.replaceState(null, '', path);
  const show = (app: ReactElement) => view.rerender(app);
  const view = render(<PublicEntry show={show} />);
  return { user: userEvent.setup() };
};

describe('/activate without its chunk (app/public-entry.tsx)', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('shows the error screen with Reload on a first load of /activate', async () => {
    const { user } = open('/activate?code=abcd2345efgh6789');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it("shows it too when 'Activate Your Account' is pressed on /signin", async () => {
    open('/signin');
    // A click alone (no pointer over it first, so no fetch ahead): one failed import, as a tap may make.
    fireEvent.click(await screen.findByRole('button', { name: 'Activate Your Account' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe('/activate');
  });
});
