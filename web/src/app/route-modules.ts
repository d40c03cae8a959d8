/**
 * Route modules more than one place loads: the router renders them, and the sign-in screens fetch
 * them ahead on intent to sign in, so that the dashboard does not wait for its chunks after the
 * sign-in (docs/decisions/056-signin-weight.md). No router here: the sign-in entry imports this.
 */
export const loadDashboardLayout = () => import('../features/dashboard/layout/dashboard-layout');
export const loadDashboardIndex = () => import('./routes/dashboard-index');

/** The chunks of /dashboard, fetched ahead; a failure here is the router's to report when it loads them. */
export const preloadDashboard = (): void => {
  loadDashboardLayout().catch(() => undefined);
  loadDashboardIndex().catch(() => undefined);
};
