/**
 * Request validation. Every action parses its body with a zod schema; failures become Cognito's
 * InvalidParameterException worded like its "validation error detected" messages. Values are never
 * echoed back: they may be tokens or answers.
 */
import { z } from 'zod';
import { invalidParameter } from './errors';

export const parseInput = <T extends z.ZodType>(schema: T, body: unknown): z.output<T> => {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const details = issues.map((issue) => {
    const [head, ...rest] = issue.path.map(String);
    const path = [head ? head.charAt(0).toLowerCase() + head.slice(1) : 'body', ...rest].join('.');
    const constraint =
      issue.code === 'invalid_type' && issue.message.endsWith('received undefined')
        ? 'Member must not be null'
        : issue.message;
    return `Value at '${path}' failed to satisfy constraint: ${constraint}`;
  });
  const count = `${issues.length} validation error${issues.length === 1 ? '' : 's'} detected`;
  throw invalidParameter(`${count}: ${details.join('; ')}`);
};

export const clientIdSchema = z
  .string()
  .regex(/^[\w+]{1,128}$/, 'Member must satisfy regular expression pattern: [\\w+]+');
export const userPoolIdSchema = z
  .string()
  .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'Member must satisfy regular expression pattern: [\\w-]+_[0-9a-zA-Z]+')
  .max(55);
export const usernameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(
    /^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u,
    'Member must satisfy regular expression pattern: [\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+',
  );
export const groupNameSchema = usernameSchema;
export const stringMapSchema = z.record(z.string(), z.string());
export const tokenSchema = z.string().min(1).max(8192);
/** The list calls' page size: Cognito allows 0 to 60 and treats 0 or none as 60. */
export const limitSchema = z.int().min(0).max(60).optional();
