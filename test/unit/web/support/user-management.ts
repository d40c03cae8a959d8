import { screen, within } from '@testing-library/react';
import { renderApp } from './render-app';

/** /dashboard/users, once both lists have loaded. */
export const openUserManagement = async () => {
  const app = renderApp('/dashboard/users');
  await screen.findByRole('tablist', { name: 'Filter users' });
  return app;
};

/** The text of one column of the row with this email, in the table the selected tab shows. */
export const cell = (email: string, column: string) => {
  const panel = within(screen.getByRole('tabpanel'));
  const index = panel.getAllByRole('columnheader').findIndex((header) => header.textContent === column);
  const row = panel.getByText(email).closest('tr');
  if (!row) throw new Error(`No row for ${email}`);
  return within(row).getAllByRole('cell')[index]?.textContent;
};
