import { paths } from '../../config/paths';

/**
 * 'Sign in again' (a fresh sign-in an action asked for) brings the person back to the page they were
 * on, not to the dashboard's first page. Only the same person comes back there; anyone else who signs
 * in on the browser starts at the dashboard. Kept in memory, not in the router's state: the guard that
 * sends a signed-out page to /signin navigates too, and would drop it. A reload forgets it.
 */
let comeBack: { path: string; userId: string } | undefined;

/** After the sign-out, the next sign-in by `userId` lands on `path` (a dashboard page). */
export const comeBackAfterSignIn = (path: string, userId: string): void => {
  comeBack = { path, userId };
};

/** A sign-out that asks for no return (the sidebar's Sign Out), or a signed-in page reached. */
export const forgetComeBack = (): void => {
  comeBack = undefined;
};

/**
 * Whether `path` is where `userId`'s sign-in was just brought back to (until a page is reached signed
 * in): a page their new roles do not open (the session ended because they changed) sends them to the
 * dashboard, not to Access Denied.
 */
export const isComeBack = (path: string, userId: string): boolean =>
  comeBack !== undefined && comeBack.userId === userId && comeBack.path === path;

/** Where a sign-in by `userId` lands: back where 'Sign in again' was pressed, or the dashboard. */
export const afterSignIn = (userId: string | undefined): string =>
  comeBack !== undefined && comeBack.userId === userId && comeBack.path.startsWith(`${paths.dashboard}/`)
    ? comeBack.path
    : paths.dashboard;
