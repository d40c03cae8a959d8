/**
 * One idempotency key per create (docs/decisions/061-idempotent-creates.md). SPEC section 9 retries a
 * mutation once; a create whose answer was lost (a dropped connection, a gateway timeout after the
 * write) would otherwise be stored twice. TanStack Query calls the mutation function again with the
 * very same variables object, so a key kept per object is the same for both tries.
 *
 * Both tries can lose their answer: the form then says it could not save, keeps what was typed, and
 * the person presses Save again, with a new variables object. A create not yet answered keeps its key
 * by its content until one is answered, so that press (or a second press that slipped in before the
 * button was disabled) sends the same key with the same body, and the server answers the record the
 * first try may have stored instead of storing another. Once answered, the same content is a new
 * create (the same reading logged again on purpose).
 */
const keys = new WeakMap<object, string>();
/** The keys of creates sent and not answered yet, by their content. */
const unanswered = new Map<string, string>();

export const idempotencyKeyFor = (variables: object): string => {
  const known = keys.get(variables);
  if (known !== undefined) return known;
  const content = JSON.stringify(variables);
  const key = unanswered.get(content) ?? crypto.randomUUID();
  unanswered.set(content, key);
  keys.set(variables, key);
  return key;
};

/** The create sent with `key` was answered (2xx): the same content again is another create. */
export const createAnswered = (key: string): void => {
  for (const [content, unansweredKey] of unanswered) {
    if (unansweredKey === key) unanswered.delete(content);
  }
};
