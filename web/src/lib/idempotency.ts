/**
 * One idempotency key per create (docs/decisions/061-idempotent-creates.md). SPEC section 9 retries a
 * mutation once; a create whose answer was lost (a dropped connection, a gateway timeout after the
 * write) would otherwise be stored twice. TanStack Query calls the mutation function again with the
 * very same variables object, so a key kept per object is the same for both tries.
 *
 * Both tries can lose their answer: the form then says it could not save, keeps what was typed, and
 * the person presses Save again, with a new variables object. A create without an answer keeps its
 * key by its content for a few minutes, so that press (or a second press that slipped in before the
 * button was disabled) sends the same key with the same body, and the server answers the record the
 * first try may have stored instead of storing another. An answer that says what became of it (2xx,
 * or a 4xx refusal) ends that, as do the minutes and a change of person: the same content then is a
 * new create (the same note sent again on purpose later).
 */
const keys = new WeakMap<object, string>();

/** How long Save pressed again after a create without an answer is taken as the same create. */
export const SAME_CREATE_MS = 5 * 60_000;

/** The keys of creates sent without an answer yet, by their content, with when they were first sent. */
const unanswered = new Map<string, { key: string; sentAt: number }>();

export const idempotencyKeyFor = (variables: object): string => {
  const known = keys.get(variables);
  if (known !== undefined) return known;
  const content = JSON.stringify(variables);
  const earlier = unanswered.get(content);
  const key =
    earlier !== undefined && Date.now() - earlier.sentAt < SAME_CREATE_MS ? earlier.key : crypto.randomUUID();
  if (key !== earlier?.key) unanswered.set(content, { key, sentAt: Date.now() });
  keys.set(variables, key);
  return key;
};

/** The create sent with `key` was answered with what became of it: the same content again is another create. */
export const createAnswered = (key: string): void => {
  for (const [content, entry] of unanswered) {
    if (entry.key === key) unanswered.delete(content);
  }
};

/** A change of person (sign-in, sign-out): nothing of the last one's creates is kept. */
export const forgetUnansweredCreates = (): void => {
  unanswered.clear();
};
