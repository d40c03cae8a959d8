/**
 * The shared schemas use zod/mini, which ships no locale. This file imports nothing of full zod, as a
 * deployed Lambda or the SPA does not, so it sees the messages a caller really gets.
 */
import { describe, expect, it } from 'vitest';
import {
  createInvitationRequestSchema,
  profileUpdateSchema,
  verifyWebauthnRequestSchema,
  type WireSchema,
} from '../../../shared/schemas';

const messages = (schema: WireSchema<unknown>, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('messages without a SPEC wording', () => {
  it.each([
    ['an unknown key', profileUpdateSchema, { userId: 'x' }, 'Unrecognized key: "userId"'],
    [
      'a value outside an enum',
      profileUpdateSchema,
      { sexAssignedAtBirth: 'other' },
      expect.stringMatching(/^Invalid option/),
    ],
    [
      'a wrong type',
      verifyWebauthnRequestSchema,
      { sessionId: 5 },
      expect.stringMatching(/^Invalid input: expected string/),
    ],
    [
      'too many roles',
      createInvitationRequestSchema,
      { email: 'a@b.co', roles: ['admins', 'coaches', 'users', 'users'] },
      expect.stringMatching(/^Too big/),
    ],
  ])('%s says what is wrong, in English', (_, schema, value, expected) => {
    const answer = messages(schema, value);
    expect(answer[0]).toEqual(expected);
    expect(answer).not.toContain('Invalid input');
  });
});
