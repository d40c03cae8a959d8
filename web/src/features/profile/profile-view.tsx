import type { ReactNode } from 'react';
import type { UserProfile } from '../../../../shared/schemas';
import { formatDate, formatHeight, MEASUREMENT_OPTIONS, SEX_OPTIONS } from './profile-values';

const NOT_SET = <span className="muted">Not set</span>;

function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="details__item">
      <dt>{label}</dt>
      <dd>{value ?? NOT_SET}</dd>
    </div>
  );
}

export function ProfileSection({ title, children }: { title: string; children: ReactNode }) {
  const id = `profile-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The read-only profile: Personal Information, Demographics, Preferences. */
export function ProfileView({ profile }: { profile: UserProfile }) {
  const label = <T,>(options: readonly { value: T; label: string }[], value: T) =>
    options.find((option) => option.value === value)?.label;
  return (
    <>
      <ProfileSection title="Personal Information">
        <dl className="details">
          <Detail label="Preferred name" value={profile.preferredName} />
          <Detail label="Family name" value={profile.familyName} />
          <Detail label="Phone number" value={profile.phoneNumber} />
        </dl>
      </ProfileSection>
      <ProfileSection title="Demographics">
        <dl className="details">
          <Detail label="Date of birth" value={formatDate(profile.dateOfBirth)} />
          <Detail label="Sex assigned at birth" value={label(SEX_OPTIONS, profile.sexAssignedAtBirth)} />
          <Detail label="Height" value={formatHeight(profile.heightCm, profile.measurementSystem)} />
        </dl>
      </ProfileSection>
      <ProfileSection title="Preferences">
        <dl className="details">
          <Detail label="Measurement system" value={label(MEASUREMENT_OPTIONS, profile.measurementSystem)} />
          <Detail label="Time zone" value={profile.timezone} />
          <Detail label="Language" value={profile.locale} />
        </dl>
      </ProfileSection>
    </>
  );
}
