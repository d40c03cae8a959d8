/**
 * One idempotency key per create (docs/decisions/061-idempotent-creates.md). SPEC section 9 retries a
 * mutation once; a create whose answer was lost (a dropped connection, a gateway timeout after the
 * write) would otherwise be stored twice. TanStack Query calls the mutation function again with the
 * very same variables object, so a key kept per object is the same for both tries and new for the
 * next create.
 */
const keys = new WeakMap<object, string>();

export const idempotencyKeyFor = (variables: object): string => {
  let key = keys.get(variables);
  if (key === undefined) {
    key = crypto.randomUUID();
    keys.set(variables, key);
  }
  return key;
};
