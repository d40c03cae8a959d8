import { useState, type FormEvent } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import type { ProfileUpdate, UserProfile } from '../../../../shared/schemas';
import { SelectField, TextField } from '../../components/form-field';
import { useUpdateProfile } from './api/update-profile';
import { HeightFields } from './components/height-fields';
import { MeasurementSystemField } from './components/measurement-system-field';
import { ProfileSection } from './profile-view';
import {
  formValuesFromProfile,
  heightCmOf,
  localToday,
  SEX_OPTIONS,
  withMeasurementSystem,
  type ProfileFormValues,
} from './profile-values';
import { SaveFailed } from './components/save-failed';
import { busyButton } from '../../lib/busy-button';

const optional = (value: string) => value.trim() || undefined;

/** The PUT body: only keys the update schema knows; cleared optional fields are left out. */
const toUpdate = (values: ProfileFormValues): ProfileUpdate => ({
  email: values.email,
  preferredName: optional(values.preferredName),
  familyName: optional(values.familyName),
  dateOfBirth: optional(values.dateOfBirth),
  heightCm: heightCmOf(values),
  sexAssignedAtBirth: values.sexAssignedAtBirth,
  measurementSystem: values.measurementSystem,
});

/** Preferred name's id: the form's first field, focused when editing starts. */
export const PREFERRED_NAME_FIELD = 'profile-preferred-name';

interface ProfileFormProps {
  profile: UserProfile;
  onCancel: () => void;
  onSaved: () => void;
}

/** Edit mode. Cancel drops the edits; the browser enforces the input bounds (SPEC section 5). */
export function ProfileForm({ profile, onCancel, onSaved }: ProfileFormProps) {
  const [values, setValues] = useState(() => formValuesFromProfile(profile));
  const save = useUpdateProfile();
  const change = (patch: Partial<ProfileFormValues>) => setValues((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toUpdate(values), { onSuccess: onSaved });
  };

  return (
    <form className="stack" onSubmit={submit} aria-label="Edit profile">
      {save.isError && <SaveFailed title={MESSAGES.profileSaveFailed} error={save.error} />}
      <ProfileSection title="Personal Information">
        <div className="field-row">
          <TextField
            id={PREFERRED_NAME_FIELD}
            label="Preferred name"
            autoComplete="given-name"
            maxLength={100}
            value={values.preferredName}
            onChange={(event) => change({ preferredName: event.target.value })}
          />
          <TextField
            id="profile-family-name"
            label="Family name"
            autoComplete="family-name"
            maxLength={100}
            value={values.familyName}
            onChange={(event) => change({ familyName: event.target.value })}
          />
        </div>
      </ProfileSection>
      <ProfileSection title="Demographics">
        <div className="field-row">
          <TextField
            id="profile-date-of-birth"
            label="Date of birth"
            type="date"
            autoComplete="bday"
            max={localToday()}
            value={values.dateOfBirth}
            onChange={(event) => change({ dateOfBirth: event.target.value })}
          />
          <SelectField
            id="profile-sex"
            label="Sex assigned at birth"
            options={SEX_OPTIONS}
            value={values.sexAssignedAtBirth}
            onChange={(event) =>
              change({ sexAssignedAtBirth: event.target.value as ProfileFormValues['sexAssignedAtBirth'] })
            }
          />
        </div>
        <HeightFields idPrefix="profile" values={values} onChange={change} />
      </ProfileSection>
      <ProfileSection title="Preferences">
        <MeasurementSystemField
          name="profile-measurement-system"
          value={values.measurementSystem}
          onChange={(system) => setValues((current) => withMeasurementSystem(current, system))}
        />
      </ProfileSection>
      <div className="form__actions">
        <button type="button" className="button button--secondary" {...busyButton(save.isPending, onCancel)}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button--primary"
          {...busyButton(save.isPending)}
          aria-busy={save.isPending}
        >
          {save.isPending ? MESSAGES.saving : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}
