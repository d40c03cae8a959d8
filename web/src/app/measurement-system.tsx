import type { ComponentType } from 'react';
import type { MeasurementSystem } from '../../../shared/health';
import { Spinner } from '../components/spinner';
import { useProfile } from '../features/profile/api/get-profile';
import { defaultMeasurementSystem } from '../features/profile/profile-values';

/**
 * The signed-in person's measurement system, from their profile: a coach reads a client's records
 * in the coach's own units too. Undefined while the profile loads; if it cannot load, the browser's
 * default (SPEC section 9): every value is shown with its unit either way.
 */
export const useMeasurementSystem = (): MeasurementSystem | undefined => {
  const profile = useProfile();
  if (profile.data) return profile.data.measurementSystem;
  return profile.isError ? defaultMeasurementSystem(navigator.language) : undefined;
};

/**
 * Joins the profile feature to a page that shows records, so that feature imports no other: the
 * page gets the measurement system as a prop once the profile has loaded ('Loading...' until then).
 */
export const withMeasurementSystem = (
  Page: ComponentType<{ measurementSystem: MeasurementSystem }>,
): ComponentType =>
  function InMeasurementSystem() {
    const system = useMeasurementSystem();
    return system ? <Page measurementSystem={system} /> : <Spinner />;
  };
