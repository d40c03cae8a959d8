/**
 * A person's records as a FHIR R4 Bundle (type `collection`): their `Patient`, then one LOINC-coded
 * `Observation` per measurement with its UCUM unit; blood pressure is one panel (85354-9) with a
 * systolic (8480-6) and a diastolic (8462-4) component. Daily logs have no LOINC code of their own and
 * stay in the JSON export.
 */
import type { Bundle, BundleEntry, CodeableConcept, Observation, Patient, Quantity } from 'fhir/r4';
import {
  BLOOD_PRESSURE_BOUNDS,
  FASTING_GLUCOSE_LOINC,
  MEASUREMENTS,
  type MeasurementSpec,
} from '../../shared/health';
import type { Measurement } from '../../shared/health-schemas';
import type { UserProfile } from '../../shared/schemas';

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
const CATEGORY_DISPLAY = { 'vital-signs': 'Vital Signs', laboratory: 'Laboratory' } as const;

const loinc = (code: string, display: string): CodeableConcept => ({
  coding: [{ system: LOINC, code, display }],
  text: display,
});

const quantity = (value: number, spec: MeasurementSpec): Quantity => ({
  value,
  unit: spec.storedUnit,
  system: UCUM,
  code: spec.ucum,
});

const urn = (id: string) => `urn:uuid:${id}`;

const patientOf = (profile: UserProfile): Patient => {
  const given = profile.preferredName ?? profile.name;
  return {
    resourceType: 'Patient',
    id: profile.userId,
    identifier: [{ system: 'urn:ietf:rfc:3986', value: urn(profile.userId) }],
    name: [
      {
        text: [given, profile.familyName].filter(Boolean).join(' '),
        ...(profile.familyName && { family: profile.familyName }),
        given: [given],
      },
    ],
    telecom: [{ system: 'email', value: profile.email }],
    gender:
      profile.sexAssignedAtBirth === 'male'
        ? 'male'
        : profile.sexAssignedAtBirth === 'female'
          ? 'female'
          : 'unknown',
    ...(profile.dateOfBirth && { birthDate: profile.dateOfBirth }),
  };
};

const observationOf = (measurement: Measurement, patientUrl: string): Observation => {
  const spec = MEASUREMENTS[measurement.type];
  const code =
    measurement.type === 'glucose' && measurement.context === 'fasting'
      ? loinc(FASTING_GLUCOSE_LOINC.code, FASTING_GLUCOSE_LOINC.display)
      : loinc(spec.loinc, spec.loincDisplay);
  const observation: Observation = {
    resourceType: 'Observation',
    id: measurement.measurementId,
    status: 'final',
    category: [
      {
        coding: [{ system: CATEGORY_SYSTEM, code: spec.category, display: CATEGORY_DISPLAY[spec.category] }],
      },
    ],
    code,
    subject: { reference: patientUrl },
    effectiveDateTime: measurement.takenAt,
    issued: measurement.createdAt,
    ...(measurement.note && { note: [{ text: measurement.note }] }),
  };
  if (typeof measurement.value === 'number')
    return { ...observation, valueQuantity: quantity(measurement.value, spec) };
  const { systolic, diastolic } = BLOOD_PRESSURE_BOUNDS;
  return {
    ...observation,
    component: [
      {
        code: loinc(systolic.loinc, systolic.loincDisplay),
        valueQuantity: quantity(measurement.value.systolic, spec),
      },
      {
        code: loinc(diastolic.loinc, diastolic.loincDisplay),
        valueQuantity: quantity(measurement.value.diastolic, spec),
      },
    ],
  };
};

export const fhirBundle = (
  profile: UserProfile,
  measurements: readonly Measurement[],
  at: string,
): Bundle => {
  const patientUrl = urn(profile.userId);
  const entries: BundleEntry[] = [
    { fullUrl: patientUrl, resource: patientOf(profile) },
    ...measurements.map((measurement) => ({
      fullUrl: urn(measurement.measurementId),
      resource: observationOf(measurement, patientUrl),
    })),
  ];
  return { resourceType: 'Bundle', type: 'collection', timestamp: at, entry: entries };
};
