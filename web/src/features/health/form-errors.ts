import type { WireSchema } from '../../../../shared/schemas';

/**
 * Every problem the shared request schema finds, as one message per form field (the first one
 * found), in the schema's order. The messages are the server's, letter for letter.
 */
export const fieldErrors = <Field extends string>(
  schema: WireSchema<unknown>,
  body: unknown,
  fieldOf: (path: string) => Field,
): Partial<Record<Field, string>> => {
  const parsed = schema.safeParse(body);
  const errors: Partial<Record<Field, string>> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    // Custom issues name nested fields in one segment ('value.systolic'); zod's own use a path.
    const field = fieldOf(issue.path.map(String).join('.').split('.')[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
};

/** The first field with an error, in the form's order. */
export const firstInvalid = <Field extends string>(
  order: readonly Field[],
  errors: Partial<Record<Field, string>>,
): Field | undefined => order.find((field) => errors[field]);
