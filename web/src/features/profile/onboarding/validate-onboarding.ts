import {
  HEIGHT_CM_MAX,
  HEIGHT_CM_MIN,
  HEIGHT_FEET_MAX,
  HEIGHT_FEET_MIN,
  HEIGHT_INCHES_MAX,
  HEIGHT_INCHES_MIN,
  ONBOARDING_AGE_MAX,
  ONBOARDING_AGE_MIN,
} from '../../../../../shared/constants';
import { feetInchesToCm } from '../../../../../shared/height';
import { VALIDATION } from '../../../../../shared/messages';
import {
  dateSchema,
  emailSchema,
  familyNameSchema,
  preferredNameSchema,
  type ProfileUpdate,
  type WireSchema,
} from '../../../../../shared/schemas';
import { heightCmOf, type ProfileFormValues } from '../profile-values';

/** The validated fields, in form order. */
export const ONBOARDING_FIELDS = ['email', 'preferredName', 'familyName', 'dateOfBirth', 'height'] as const;
export type OnboardingField = (typeof ONBOARDING_FIELDS)[number];
export type OnboardingErrors = Partial<Record<OnboardingField, string>>;

const wholeIn = (value: string, min: number, max: number) => {
  const parsed = Number(value);
  return value.trim() !== '' && Number.isInteger(parsed) && parsed >= min && parsed <= max;
};

const heightError = (values: ProfileFormValues): string | undefined => {
  if (values.measurementSystem === 'metric') {
    if (!values.heightCm.trim()) return VALIDATION.heightRequired;
    const cm = Number(values.heightCm);
    return Number.isFinite(cm) && cm >= HEIGHT_CM_MIN && cm <= HEIGHT_CM_MAX
      ? undefined
      : VALIDATION.heightRange;
  }
  if (!values.heightFeet.trim() || !values.heightInches.trim()) return VALIDATION.heightRequired;
  const valid =
    wholeIn(values.heightFeet, HEIGHT_FEET_MIN, HEIGHT_FEET_MAX) &&
    wholeIn(values.heightInches, HEIGHT_INCHES_MIN, HEIGHT_INCHES_MAX);
  if (!valid) return VALIDATION.invalidHeight;
  // 1 ft 0 in or 9 ft 11 in fall outside what a profile can store (50 to 300 cm).
  const cm = feetInchesToCm(Number(values.heightFeet), Number(values.heightInches));
  return cm >= HEIGHT_CM_MIN && cm <= HEIGHT_CM_MAX ? undefined : VALIDATION.invalidHeight;
};

const dateOfBirthError = (dateOfBirth: string, today: Date): string | undefined => {
  if (!dateOfBirth) return VALIDATION.dateOfBirthRequired;
  if (!dateSchema.safeParse(dateOfBirth).success) return VALIDATION.invalidDateOfBirth;
  // SPEC section 5: age is the difference in years.
  const age = today.getFullYear() - Number(dateOfBirth.slice(0, 4));
  return age >= ONBOARDING_AGE_MIN && age <= ONBOARDING_AGE_MAX ? undefined : VALIDATION.invalidDateOfBirth;
};

/** The first message of what `schema` refuses in `value`, if anything. */
const schemaProblem = (schema: WireSchema<unknown>, value: string): string | undefined => {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

/** Every onboarding message of SPEC section 5, one per field, in form order. */
export const validateOnboarding = (values: ProfileFormValues, today: Date): OnboardingErrors => {
  const errors: OnboardingErrors = {
    email: emailSchema.safeParse(values.email).success ? undefined : VALIDATION.invalidEmail,
    // The server's rules (a visible character, the length), so what it would refuse is said at the field.
    preferredName: schemaProblem(preferredNameSchema, values.preferredName),
    familyName: schemaProblem(familyNameSchema, values.familyName),
    dateOfBirth: dateOfBirthError(values.dateOfBirth, today),
    height: heightError(values),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message));
};

/** The PUT body once the form is valid; marks onboarding complete. */
export const onboardingUpdate = (values: ProfileFormValues): ProfileUpdate => ({
  email: values.email.trim(),
  preferredName: values.preferredName.trim(),
  familyName: values.familyName.trim(),
  dateOfBirth: values.dateOfBirth,
  heightCm: heightCmOf(values),
  sexAssignedAtBirth: values.sexAssignedAtBirth,
  measurementSystem: values.measurementSystem,
  metadata: { onboardingCompleted: true },
});
