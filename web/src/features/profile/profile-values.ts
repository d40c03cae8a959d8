import { HEIGHT_CM_MAX, HEIGHT_CM_MIN, IMPERIAL_DEFAULT_LANGUAGE } from '../../../../shared/constants';
import { cmToFeetInches, feetInchesToCm } from '../../../../shared/height';
import type { UserProfile } from '../../../../shared/schemas';
import { localDate } from '../../lib/format';

export type MeasurementSystem = UserProfile['measurementSystem'];
export type SexAssignedAtBirth = UserProfile['sexAssignedAtBirth'];

/** What the profile and onboarding forms hold: strings as typed, converted on save. */
export interface ProfileFormValues {
  email: string;
  preferredName: string;
  familyName: string;
  dateOfBirth: string;
  sexAssignedAtBirth: SexAssignedAtBirth;
  measurementSystem: MeasurementSystem;
  heightCm: string;
  heightFeet: string;
  heightInches: string;
}

export const SEX_OPTIONS: readonly { value: SexAssignedAtBirth; label: string }[] = [
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
  { value: 'prefer-not-to-say', label: 'Prefer not to say' },
];

export const MEASUREMENT_OPTIONS: readonly { value: MeasurementSystem; label: string }[] = [
  { value: 'metric', label: 'Metric (cm, kg)' },
  { value: 'imperial', label: 'Imperial (ft, in, lb)' },
];

/** SPEC section 9: imperial when the browser language is en-US, else metric. */
export const defaultMeasurementSystem = (language: string | undefined): MeasurementSystem =>
  language === IMPERIAL_DEFAULT_LANGUAGE ? 'imperial' : 'metric';

const heightStrings = (heightCm: number | undefined) => {
  if (heightCm === undefined) return { heightCm: '', heightFeet: '', heightInches: '' };
  const { feet, inches } = cmToFeetInches(heightCm);
  return { heightCm: String(heightCm), heightFeet: String(feet), heightInches: String(inches) };
};

export const formValuesFromProfile = (
  profile: UserProfile,
  measurementSystem = profile.measurementSystem,
): ProfileFormValues => ({
  email: profile.email,
  preferredName: profile.preferredName ?? '',
  familyName: profile.familyName ?? '',
  dateOfBirth: profile.dateOfBirth ?? '',
  sexAssignedAtBirth: profile.sexAssignedAtBirth,
  measurementSystem,
  ...heightStrings(profile.heightCm),
});

const numberOrUndefined = (value: string): number | undefined => {
  if (!value.trim()) return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/**
 * Height in centimetres from whichever fields the chosen system shows. Feet and inches are whole, so
 * while they are still those of the height held in centimetres (the stored one, or the one typed before
 * a switch of system), that height is kept: saving, or switching and back, never moves it by the
 * rounding to an inch (up to 1.27 cm).
 */
export const heightCmOf = (values: ProfileFormValues): number | undefined => {
  const exact = numberOrUndefined(values.heightCm);
  if (values.measurementSystem === 'metric') return exact;
  const feet = numberOrUndefined(values.heightFeet);
  const inches = numberOrUndefined(values.heightInches);
  if (feet === undefined || inches === undefined) return undefined;
  // Only a height the server takes: 300.4 cm shows as 9 ft 10 in, which is 299.7.
  if (exact !== undefined && exact >= HEIGHT_CM_MIN && exact <= HEIGHT_CM_MAX) {
    const shown = cmToFeetInches(exact);
    if (shown.feet === feet && shown.inches === inches) return exact;
  }
  return feetInchesToCm(feet, inches);
};

/** Switching systems carries the height over, so nobody retypes it. */
export const withMeasurementSystem = (
  values: ProfileFormValues,
  system: MeasurementSystem,
): ProfileFormValues => {
  const cm = heightCmOf(values);
  return { ...values, measurementSystem: system, ...(cm === undefined ? {} : heightStrings(cm)) };
};

/** SPEC section 4: complete means onboarding done and every health basic present. */
export const isProfileComplete = (profile: UserProfile): boolean =>
  profile.metadata.onboardingCompleted &&
  Boolean(profile.preferredName && profile.familyName && profile.dateOfBirth && profile.measurementSystem) &&
  profile.heightCm !== undefined;

export const formatHeight = (heightCm: number | undefined, system: MeasurementSystem): string | undefined => {
  if (heightCm === undefined) return undefined;
  if (system === 'metric') return `${heightCm} cm`;
  const { feet, inches } = cmToFeetInches(heightCm);
  return `${feet} ft ${inches} in`;
};

/**
 * Today's date (YYYY-MM-DD) where the person is: the latest date of birth the date fields offer (the
 * server takes any date up to today anywhere on Earth, decision 002).
 */
export const localToday = (): string => localDate(new Date());

/** A calendar date (YYYY-MM-DD) in the reader's locale, without time-zone drift. */
export const formatDate = (date: string | undefined): string | undefined =>
  date
    ? new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC', dateStyle: 'long' })
    : undefined;
