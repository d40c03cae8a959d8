import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Icon } from '../../../components/icon';
import { PAGE_TITLE_ID } from '../../../components/page-header';
import { useSessionUser } from '../../../lib/auth/auth-provider';
import { dashboardTitle } from '../nav-items';
import { DRAWER_ID, MobileDrawer } from './mobile-drawer';
import { SidebarContent } from './sidebar-content';

/** The signed-in shell: sidebar (a drawer on small screens), header and the page. */
export function DashboardLayout() {
  const user = useSessionUser();
  const { pathname } = useLocation();
  const menuButton = useRef<HTMLButtonElement>(null);
  // The drawer belongs to the page it was opened on, so any route change closes it.
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const drawerOpen = drawerOpenOn === pathname;
  // A new page takes the focus, as a page load would: a screen reader says its title (the landmark is
  // named by the h1), and Tab goes on from the page, not from a link that has left or the sidebar. Not
  // when the page opened a dialog that holds the focus (onboarding), nor when the drawer was open: SPEC
  // gives the focus back to the menu button then. The focus does not scroll: where the page shows is
  // the router's (`Root`), and a page taller than the screen would otherwise slide under the header.
  const main = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    const fromDrawer = drawerOpenOn === shownPath.current;
    shownPath.current = pathname;
    if (fromDrawer || document.activeElement?.closest('[aria-modal="true"]')) return;
    main.current?.focus({ preventScroll: true });
  }, [pathname, drawerOpenOn]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <aside className="shell__sidebar" aria-label="Sidebar">
        <SidebarContent />
      </aside>
      <div className="shell__body">
        <header className="topbar">
          <button
            ref={menuButton}
            type="button"
            className="icon-button topbar__menu"
            aria-label="Open menu"
            aria-expanded={drawerOpen}
            aria-controls={drawerOpen ? DRAWER_ID : undefined}
            onClick={() => setDrawerOpenOn(pathname)}
          >
            <Icon name="menu" />
          </button>
          <p className="topbar__title">{dashboardTitle(user.roles)}</p>
        </header>
        <main
          ref={main}
          id="main-content"
          className="shell__main"
          tabIndex={-1}
          aria-labelledby={PAGE_TITLE_ID}
        >
          <Outlet />
        </main>
      </div>
      {drawerOpen && <MobileDrawer onClose={() => setDrawerOpenOn(null)} menuButton={menuButton} />}
    </div>
  );
}
