import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { APP_VERSION } from '../../../../../shared/constants';
import { APP_NAME } from '../../../config/brand';
import { paths } from '../../../config/paths';
import { Icon, Logo } from '../../../components/icon';
import { useSessionUser } from '../../../lib/auth/auth-provider';
import { useSignOutToSignIn } from '../../../lib/auth/use-sign-out';
import { navItemsFor } from '../nav-items';
import { busyButton } from '../../../lib/busy-button';

/** Brand, role-filtered navigation and the footer (email, version, Sign Out). */
export function SidebarContent() {
  const user = useSessionUser();
  const signOutToSignIn = useSignOutToSignIn();
  const [signingOut, setSigningOut] = useState(false);

  const onSignOut = async () => {
    setSigningOut(true);
    await signOutToSignIn();
  };

  return (
    <div className="sidebar">
      <Link to={paths.dashboard} className="sidebar__brand">
        <Logo />
        <span>{APP_NAME}</span>
      </Link>
      <nav aria-label="Main" className="sidebar__nav">
        <ul>
          {navItemsFor(user.roles).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className="sidebar__link">
                <Icon name={item.icon} />
                <span>{item.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <footer className="sidebar__footer">
        <p className="sidebar__email" title={user.email}>
          {user.email}
        </p>
        <p className="sidebar__version">Version {APP_VERSION}</p>
        <button
          type="button"
          className="button button--secondary button--block"
          {...busyButton(signingOut, () => void onSignOut())}
        >
          <Icon name="logout" />
          Sign Out
        </button>
      </footer>
    </div>
  );
}
