import { SelectField, TextField } from '../../../components/form-field';
import { HeightFields } from '../components/height-fields';
import { MeasurementSystemField } from '../components/measurement-system-field';
import { localToday, SEX_OPTIONS, withMeasurementSystem, type ProfileFormValues } from '../profile-values';
import type { OnboardingErrors, OnboardingField } from './validate-onboarding';

/** Where focus goes for each field's error (the feet input stands for an imperial height). */
export const onboardingFieldId = (field: OnboardingField, values: ProfileFormValues): string =>
  field === 'height' && values.measurementSystem === 'imperial'
    ? 'onboarding-height-feet'
    : {
        email: 'onboarding-email',
        preferredName: 'onboarding-preferred-name',
        familyName: 'onboarding-family-name',
        dateOfBirth: 'onboarding-date-of-birth',
        height: 'onboarding-height-cm',
      }[field];

interface OnboardingFieldsProps {
  values: ProfileFormValues;
  errors: OnboardingErrors;
  onChange: (update: (current: ProfileFormValues) => ProfileFormValues) => void;
}

export function OnboardingFields({ values, errors, onChange }: OnboardingFieldsProps) {
  const change = (patch: Partial<ProfileFormValues>) => onChange((current) => ({ ...current, ...patch }));
  const id = (field: OnboardingField) => onboardingFieldId(field, values);
  return (
    <>
      <TextField
        id={id('email')}
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(event) => change({ email: event.target.value })}
        error={errors.email}
      />
      <div className="field-row">
        <TextField
          id={id('preferredName')}
          label="Preferred name"
          autoComplete="given-name"
          data-autofocus
          value={values.preferredName}
          onChange={(event) => change({ preferredName: event.target.value })}
          error={errors.preferredName}
        />
        <TextField
          id={id('familyName')}
          label="Family name"
          autoComplete="family-name"
          value={values.familyName}
          onChange={(event) => change({ familyName: event.target.value })}
          error={errors.familyName}
        />
      </div>
      <div className="field-row">
        <TextField
          id={id('dateOfBirth')}
          label="Date of birth"
          type="date"
          autoComplete="bday"
          max={localToday()}
          value={values.dateOfBirth}
          onChange={(event) => change({ dateOfBirth: event.target.value })}
          error={errors.dateOfBirth}
        />
        <SelectField
          id="onboarding-sex"
          label="Sex assigned at birth"
          options={SEX_OPTIONS}
          value={values.sexAssignedAtBirth}
          onChange={(event) =>
            change({ sexAssignedAtBirth: event.target.value as ProfileFormValues['sexAssignedAtBirth'] })
          }
        />
      </div>
      <MeasurementSystemField
        name="onboarding-measurement-system"
        value={values.measurementSystem}
        onChange={(system) => onChange((current) => withMeasurementSystem(current, system))}
      />
      <HeightFields idPrefix="onboarding" values={values} onChange={change} error={errors.height} />
    </>
  );
}
