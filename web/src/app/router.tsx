import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/spinner';
import { paths } from '../config/paths';
import { GuestOnly, RequireAuth, RequireRole } from './guards';
import { RouteError } from './route-error';
import { loadDashboardIndex, loadDashboardLayout } from './route-modules';

/**
 * A page from a lazily loaded route module: a chunk of its own, or one shared by pages that belong
 * together (routes/health, routes/coaching, routes/admin: docs/decisions/043-coaching-screens.md).
 */
const page =
  <Module,>(load: () => Promise<Module>, pick: (module: Module) => ComponentType) =>
  async () => ({ Component: pick(await load()) });

const toDashboard = <Navigate to={paths.dashboard} replace />;

/**
 * Around every page: a page opened by a link starts at its top, as a page load does, and Back or
 * Forward finds the page where it was left (React Router keeps the positions for the tab's session).
 */
function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/** Every route of SPEC section 2. Guards are eager (tiny); pages load on demand. */
export const routes: RouteObject[] = [
  {
    Component: Root,
    ErrorBoundary: RouteError,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: paths.root, element: toDashboard },
      {
        element: <GuestOnly />,
        children: [
          {
            path: paths.signin,
            lazy: page(
              () => import('./routes/signin'),
              (m) => m.SignInRoute,
            ),
          },
        ],
      },
      {
        path: paths.activate,
        lazy: page(
          () => import('./routes/activate'),
          (m) => m.ActivationRoute,
        ),
      },
      {
        path: paths.unauthorized,
        lazy: page(
          () => import('./routes/unauthorized'),
          (m) => m.UnauthorizedPage,
        ),
      },
      {
        path: paths.dashboard,
        element: <RequireAuth />,
        children: [
          {
            lazy: page(loadDashboardLayout, (m) => m.DashboardLayout),
            children: [
              {
                index: true,
                lazy: page(loadDashboardIndex, (m) => m.DashboardIndex),
              },
              {
                element: <RequireRole anyOf={['admin']} />,
                children: [
                  {
                    path: paths.users,
                    lazy: page(
                      () => import('./routes/admin'),
                      (m) => m.UserManagementPage,
                    ),
                  },
                  {
                    path: paths.settings,
                    lazy: page(
                      () => import('./routes/placeholders'),
                      (m) => m.SettingsPage,
                    ),
                  },
                  {
                    path: paths.audit,
                    lazy: page(
                      () => import('./routes/admin'),
                      (m) => m.AuditRoute,
                    ),
                  },
                ],
              },
              {
                element: <RequireRole anyOf={['coach']} />,
                children: [
                  {
                    path: paths.clients,
                    lazy: page(
                      () => import('./routes/coaching'),
                      (m) => m.ClientsPage,
                    ),
                  },
                  {
                    path: paths.clientDetail,
                    lazy: page(
                      () => import('./routes/coaching'),
                      (m) => m.ClientDetailRoute,
                    ),
                  },
                ],
              },
              {
                element: <RequireRole anyOf={['coach', 'admin']} />,
                children: [
                  {
                    path: paths.assessments,
                    lazy: page(
                      () => import('./routes/placeholders'),
                      (m) => m.AssessmentsPage,
                    ),
                  },
                ],
              },
              {
                element: <RequireRole anyOf={['user']} />,
                children: [
                  {
                    path: paths.coach,
                    lazy: page(
                      () => import('./routes/coaching'),
                      (m) => m.MyCoachPage,
                    ),
                  },
                ],
              },
              {
                path: paths.health,
                lazy: page(
                  () => import('./routes/health'),
                  (m) => m.HealthRoute,
                ),
              },
              {
                path: paths.metrics,
                lazy: page(
                  () => import('./routes/health'),
                  (m) => m.MetricsRoute,
                ),
              },
              {
                path: paths.profile,
                lazy: page(
                  () => import('./routes/profile'),
                  (m) => m.ProfileRoute,
                ),
              },
            ],
          },
        ],
      },
      { path: '*', element: toDashboard },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
