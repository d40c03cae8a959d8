import type { ComponentType } from 'react';
import { HealthPage } from '../../features/health/health-page';
import { MetricsPage } from '../../features/health/metrics-page';
import type { MeasurementSystem } from '../../../../shared/health';
import { Spinner } from '../../components/spinner';
import { useProfile } from '../../features/profile/api/get-profile';
import { defaultMeasurementSystem } from '../../features/profile/profile-values';

/**
 * The person's measurement system, from their profile. Undefined while the profile loads; if it
 * cannot load, the browser's default (SPEC section 9): every value is shown with its unit either way.
 */
const useMeasurementSystem = (): MeasurementSystem | undefined => {
  const profile = useProfile();
  if (profile.data) return profile.data.measurementSystem;
  return profile.isError ? defaultMeasurementSystem(navigator.language) : undefined;
};

/**
 * One route module for both health pages (one chunk: the entry's preload map stays as small as it was).
 * Joins the profile feature to a health page, so `features/health` imports no other feature:
 * the page gets the measurement system as a prop once the profile has loaded.
 */
const withMeasurementSystem = (
  Page: ComponentType<{ measurementSystem: MeasurementSystem }>,
): ComponentType =>
  function InMeasurementSystem() {
    const system = useMeasurementSystem();
    return system ? <Page measurementSystem={system} /> : <Spinner />;
  };

/** /dashboard/health: Health Overview in the person's units. */
export const HealthRoute = withMeasurementSystem(HealthPage);

/** /dashboard/metrics: Metrics & Analytics in the person's units (the route bin/size.ts measures). */
export const MetricsRoute = withMeasurementSystem(MetricsPage);
