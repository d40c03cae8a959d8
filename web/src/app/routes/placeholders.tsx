import { PlaceholderPage } from '../../components/placeholder-page';

export function SettingsPage() {
  return (
    <PlaceholderPage title="System Settings" description="Platform-wide configuration for administrators." />
  );
}

export function AssessmentsPage() {
  return (
    <PlaceholderPage
      title="Assessments"
      description="Structured metabolic health assessments for your clients."
    />
  );
}
