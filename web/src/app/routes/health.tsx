/*
 * One route module for both health pages (one chunk: the entry's preload map stays as small as it
 * was). `withMeasurementSystem` joins the profile feature to a health page, so `features/health`
 * imports no other feature: the page gets the measurement system as a prop once the profile has loaded.
 */
import { HealthPage } from '../../features/health/health-page';
import { MetricsPage } from '../../features/health/metrics-page';
import { withMeasurementSystem } from '../measurement-system';

/** /dashboard/health: Health Overview in the person's units. */
export const HealthRoute = withMeasurementSystem(HealthPage);

/** /dashboard/metrics: Metrics & Analytics in the person's units (the route bin/size.ts measures). */
export const MetricsRoute = withMeasurementSystem(MetricsPage);
