import { useState, type FormEvent } from 'react';
import { MESSAGES } from '../../../../../shared/messages';
import type { UserProfile } from '../../../../../shared/schemas';
import { Modal } from '../../../components/overlay/modal';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useUpdateProfile } from '../api/update-profile';
import { defaultMeasurementSystem, formValuesFromProfile, type ProfileFormValues } from '../profile-values';
import { OnboardingFields, onboardingFieldId } from './onboarding-fields';
import {
  ONBOARDING_FIELDS,
  onboardingUpdate,
  validateOnboarding,
  type OnboardingErrors,
} from './validate-onboarding';
import { SaveFailed } from '../components/save-failed';
import { busyButton } from '../../../lib/busy-button';

/** The browser's default system until the person has chosen one (SPEC section 9). */
const initialValues = (profile: UserProfile): ProfileFormValues =>
  formValuesFromProfile(
    profile,
    profile.metadata.onboardingCompleted
      ? profile.measurementSystem
      : defaultMeasurementSystem(navigator.language),
  );

/**
 * Asks for the health basics while the profile is incomplete and closes once they are saved
 * (SPEC section 4). It cannot be dismissed: coaching needs these basics.
 */
export function OnboardingModal({ profile }: { profile: UserProfile }) {
  const [values, setValues] = useState(() => initialValues(profile));
  const [errors, setErrors] = useState<OnboardingErrors>({});
  const save = useUpdateProfile();
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateOnboarding(values, new Date());
    setErrors(found);
    const first = ONBOARDING_FIELDS.find((field) => found[field]);
    if (first) return focusAfterRender(onboardingFieldId(first, values));
    save.mutate(onboardingUpdate(values));
  };

  return (
    <Modal
      title="Complete Your Profile"
      description="A few basics help your coach tailor your plan. You can change them later in Profile."
      size="lg"
    >
      <form className="form" onSubmit={submit} noValidate>
        {save.isError && <SaveFailed title={MESSAGES.onboardingSaveFailed} error={save.error} />}
        <OnboardingFields values={values} errors={errors} onChange={setValues} />
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            {...busyButton(save.isPending)}
            aria-busy={save.isPending}
          >
            {save.isPending ? MESSAGES.saving : 'Save and Continue'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
