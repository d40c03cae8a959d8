import { Link } from 'react-router';
import type { Role } from '../../../../../shared/constants';
import { welcomeTitle } from '../../../../../shared/messages';
import { Icon } from '../../../components/icon';
import { PageHeader } from '../../../components/page-header';
import { NAV_ITEMS, type NavItem } from '../nav-items';

interface DashboardHomeProps {
  /** Preferred name, else email, else 'there' (SPEC section 2). */
  greetingName: string;
  roles: readonly Role[];
}

const byLabel = (...labels: string[]): NavItem[] => NAV_ITEMS.filter((item) => labels.includes(item.label));

/** The welcome page: one group of cards per role the person holds. */
export function DashboardHome({ greetingName, roles }: DashboardHomeProps) {
  const health = byLabel(
    'My Health',
    'My Metrics',
    'Profile',
    ...(roles.includes('user') ? ['My Coach'] : []),
  );
  return (
    <>
      <PageHeader
        title={welcomeTitle(greetingName)}
        tabTitle="Dashboard"
        description="Here is where your coaching and health tools live."
      />
      {roles.includes('admin') && (
        <CardGroup title="Admin Tools" items={byLabel('User Management', 'System Settings', 'Audit Log')} />
      )}
      {roles.includes('coach') && (
        <CardGroup title="Coach Tools" items={byLabel('My Clients', 'Assessments')} />
      )}
      <CardGroup title="My Health" items={health} />
    </>
  );
}

function CardGroup({ title, items }: { title: string; items: NavItem[] }) {
  const id = `cards-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      <ul className="card-grid">
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="tool-card">
              <span className="tool-card__icon">
                <Icon name={item.icon} size={22} />
              </span>
              <span className="tool-card__title">{item.label}</span>
              <span className="tool-card__text">{item.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
