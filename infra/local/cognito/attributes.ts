/**
 * User attributes as a pool with the standard schema, email as a sign-in alias and free `custom:`
 * attributes would accept them. Validation mirrors Cognito's messages so admin tooling sees real errors.
 */
import { z } from 'zod';
import { invalidParameter } from './errors';

const STANDARD_ATTRIBUTES = new Set([
  'address',
  'birthdate',
  'email',
  'email_verified',
  'family_name',
  'gender',
  'given_name',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'phone_number',
  'phone_number_verified',
  'picture',
  'preferred_username',
  'profile',
  'updated_at',
  'website',
  'zoneinfo',
]);

const BOOLEAN_ATTRIBUTES = new Set(['email_verified', 'phone_number_verified']);

export const attributeTypeSchema = z.object({
  Name: z.string().min(1).max(32),
  Value: z.string().max(2048).optional(),
});
export type AttributeType = z.infer<typeof attributeTypeSchema>;

// Deliberately loose, like Cognito's own check: one @, something on both sides, a dot in the domain.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PHONE = /^\+[0-9]{4,15}$/;

const isWritable = (name: string): boolean =>
  STANDARD_ATTRIBUTES.has(name) || /^custom:[\w-]{1,20}$/.test(name) || name.startsWith('dev:custom:');

const normalizeValue = (name: string, value: string): string => {
  if (BOOLEAN_ATTRIBUTES.has(name)) {
    const lower = value.toLowerCase();
    if (lower !== 'true' && lower !== 'false') throw invalidParameter(`Invalid value for ${name}.`);
    return lower;
  }
  if (name === 'email' && !EMAIL.test(value)) throw invalidParameter('Invalid email address format.');
  if (name === 'phone_number' && !PHONE.test(value)) throw invalidParameter('Invalid phone number format.');
  return value;
};

/**
 * The attributes after applying `updates` to `current`. A new email is unverified unless the same
 * call verifies it, as in Cognito, so a changed address never inherits the old one's alias rights.
 */
export const applyAttributes = (
  current: Readonly<Record<string, string>>,
  updates: readonly AttributeType[],
): Record<string, string> => {
  const next: Record<string, string> = { ...current };
  const touched = new Set<string>();
  for (const { Name, Value } of updates) {
    if (Name === 'sub' || Name.startsWith('cognito:')) {
      throw invalidParameter(`Cannot modify the non-mutable attribute ${Name}`);
    }
    if (!isWritable(Name)) {
      throw invalidParameter(`Attribute does not exist in the schema.`);
    }
    touched.add(Name);
    if (Value === undefined || Value === '') {
      delete next[Name];
    } else {
      next[Name] = normalizeValue(Name, Value);
    }
  }
  if (touched.has('email') && !touched.has('email_verified') && next['email'] !== current['email']) {
    next['email_verified'] = 'false';
  }
  if (next['email'] === undefined) delete next['email_verified'];
  return next;
};

/** Cognito refuses email-shaped usernames in a pool that uses email as an alias. */
export const looksLikeEmail = (value: string): boolean => EMAIL.test(value);

/**
 * Attribute values typed the way they appear in an id token: the verified flags are booleans,
 * `updated_at` is a number, everything else stays a string.
 */
export const claimValue = (name: string, value: string): string | boolean | number => {
  if (BOOLEAN_ATTRIBUTES.has(name)) return value === 'true';
  if (name === 'updated_at' && /^\d+$/.test(value)) return Number(value);
  return value;
};
