/**
 * SPEC-2 section 1 texts. The bound messages come from `outOfBoundsMessage` (shared/health.ts); the
 * others are not worded by SPEC-2 and follow its tone (docs/decisions/040-health-records.md). Kept apart
 * from shared/messages.ts so that the sign-in chunk, which loads that module, does not carry them.
 */
export const HEALTH_MESSAGES = {
  systolicAboveDiastolic: 'Systolic must be higher than diastolic',
  measurementType: 'Type must be one of glucose, weight, waist, blood_pressure, hba1c, triglycerides',
  valueRequired: 'Value must be a number',
  bloodPressureShape: 'Blood pressure needs a systolic and a diastolic value',
  unit: 'Unit must be one of mg/dL, mmol/L, kg, lb, cm, in, mmHg, %',
  unitNotForType: (unit: string, label: string) => `${unit} is not a unit for ${label}`,
  glucoseContext: 'Context must be one of fasting, before_meal, after_meal, bedtime, random',
  contextGlucoseOnly: 'Only a glucose reading has a context',
  noteTooLong: 'Note must be at most 500 characters',
  takenAtLabel: 'Date and time',
  eatenAtLabel: 'Meal time',
  startedAtLabel: 'Start time',
  sleepStartLabel: 'Sleep start',
  sleepEndLabel: 'Sleep end',
  timeInFuture: (label: string) => `${label} cannot be in the future`,
  timeTooEarly: (label: string) => `${label} must be after 1900-01-01`,
  logKind: 'Kind must be one of meal, activity, sleep',
  mealDescription: {
    required: 'Description is required',
    tooLong: 'Description must be at most 500 characters',
  },
  carbs: 'Carbs must be between 0 and 1000 g',
  activityName: { required: 'Activity is required', tooLong: 'Activity must be at most 100 characters' },
  activityMinutes: 'Minutes must be a whole number between 1 and 1440',
  intensity: 'Intensity must be one of light, moderate, vigorous',
  sleepQuality: 'Quality must be a whole number between 1 and 5',
  sleepEndsBeforeStart: 'Sleep must end after it starts',
  sleepTooLong: 'Sleep must last at most 24 hours',
  limit: 'Limit must be between 1 and 200',
  cursor: 'Invalid cursor',
  fromAfterTo: 'From must not be after to',
  exportFormat: 'Format must be json or fhir',
  measurementNotFound: 'Measurement not found',
  logNotFound: 'Log not found',
  entrySaved: 'Entry saved',
  noEntries: 'No entries yet',
  confirmDeleteEntry: 'Delete this entry?',
} as const;
