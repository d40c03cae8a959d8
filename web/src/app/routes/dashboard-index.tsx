import { DashboardHome } from '../../features/dashboard/home/dashboard-home';
import { useProfile } from '../../features/profile/api/get-profile';
import { OnboardingModal } from '../../features/profile/onboarding/onboarding-modal';
import { isProfileComplete } from '../../features/profile/profile-values';
import { useSessionUser } from '../../lib/auth/auth-provider';

/**
 * The dashboard index joins two features: the welcome page (dashboard) and the onboarding
 * modal (profile), which opens while the loaded profile is incomplete.
 */
export function DashboardIndex() {
  const user = useSessionUser();
  const profile = useProfile();
  const greetingName = profile.data?.preferredName || user.email || 'there';
  return (
    <>
      <DashboardHome greetingName={greetingName} roles={user.roles} />
      {profile.data && !isProfileComplete(profile.data) && <OnboardingModal profile={profile.data} />}
    </>
  );
}
