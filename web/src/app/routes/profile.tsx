/*
 * The Profile page joined to the health feature's 'Export my data' (SPEC-2 section 3.4: "as 1.3"),
 * the same download Metrics & Analytics offers, so `features/profile` imports no other feature.
 */
import { ExportRecords } from '../../features/health/components/export-records';
import { ProfilePage } from '../../features/profile/profile-page';

/** /dashboard/profile. */
export function ProfileRoute() {
  return <ProfilePage exportData={<ExportRecords />} />;
}
