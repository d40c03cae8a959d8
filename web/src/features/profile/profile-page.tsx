import { useState, type ReactNode } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import type { UserProfile } from '../../../../shared/schemas';
import { Alert } from '../../components/alert';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { useSessionUser } from '../../lib/auth/auth-provider';
import { reloadPage } from '../../lib/browser';
import { errorMessage } from '../../lib/errors';
import { ROLE_LABELS } from '../../lib/role-labels';
import { useFocusAfterRender } from '../../lib/use-focus-after-render';
import { useProfile } from './api/get-profile';
import { DeleteAccount } from './components/delete-account';
import { PasskeysSection } from './components/passkeys-section';
import { RecentActivity } from './components/recent-activity';
import { SignOutEverywhere } from './components/sign-out-everywhere';
import { PREFERRED_NAME_FIELD, ProfileForm } from './profile-form';
import { ProfileSection, ProfileView } from './profile-view';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const PROFILE_SAVED = 'Profile saved';
const EDIT_BUTTON = 'profile-edit';

interface ProfilePageProps {
  /** 'Export my data', which the health feature owns (joined in app/routes/profile.tsx). */
  exportData?: ReactNode;
}

export function ProfilePage({ exportData }: ProfilePageProps) {
  const profile = useProfile();
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState('');
  // 'Edit Profile' and the form replace each other, each taking the focus the other had (it would
  // fall to the page): the first field when editing starts, 'Edit Profile' when it ends.
  const focusAfterRender = useFocusAfterRender();
  const edit = () => {
    setStatus('');
    setEditing(true);
    focusAfterRender(PREFERRED_NAME_FIELD);
  };
  const stopEditing = (message = '') => {
    setEditing(false);
    setStatus(message);
    // A save ends later: the person may be typing elsewhere by then.
    focusAfterRender(EDIT_BUTTON, { ifLost: true });
  };

  if (profile.isPending) return <Spinner />;
  if (profile.isError) {
    return (
      <>
        <PageHeader title="Profile" />
        <Alert tone="error" title={MESSAGES.profileLoadFailed}>
          <p>{errorMessage(profile.error, MESSAGES.profileLoadFallback)}</p>
        </Alert>
        <button type="button" className="button button--primary" onClick={reloadPage}>
          Retry
        </button>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Profile"
        description="Your personal details help your coach tailor your plan."
        actions={
          !editing && (
            <button id={EDIT_BUTTON} type="button" className="button button--primary" onClick={edit}>
              Edit Profile
            </button>
          )
        }
      />
      {/* Always in the page, so the confirmation is announced when its text appears. */}
      <p className="save-status" role="status">
        {status}
      </p>
      <div className="stack">
        {editing ? (
          <ProfileForm
            profile={profile.data}
            onCancel={() => stopEditing()}
            onSaved={() => stopEditing(PROFILE_SAVED)}
          />
        ) : (
          <ProfileView profile={profile.data} />
        )}
        <AccountInformation profile={profile.data} />
        <PasskeysSection />
        <SignOutEverywhere />
        <RecentActivity />
        {exportData}
        <DeleteAccount email={profile.data.email} />
      </div>
    </>
  );
}

/** Email, the user id for support and the roles, none of them editable here. */
function AccountInformation({ profile }: { profile: UserProfile }) {
  const user = useSessionUser();
  return (
    <ProfileSection title="Account Information">
      <dl className="details">
        <div className="details__item">
          <dt>Email</dt>
          <dd>{profile.email}</dd>
        </div>
        <div className="details__item">
          <dt>Roles</dt>
          <dd>
            <ul className="badge-list" aria-label="Roles">
              {user.roles.map((role) => (
                <li key={role} className="badge badge--primary">
                  {ROLE_LABELS[role]}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
      <div className="field">
        <label htmlFor="profile-user-id">User ID</label>
        <input
          id="profile-user-id"
          className="input--code"
          readOnly
          value={profile.userId}
          aria-describedby="profile-user-id-hint"
        />
        <p id="profile-user-id-hint" className="field__hint">
          Share this ID with support so they can find your account.
        </p>
      </div>
    </ProfileSection>
  );
}
