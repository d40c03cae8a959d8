import { useState } from 'react';
import type { WireSchema } from '../../../../shared/schemas';
import { errorMessage } from '../../lib/errors';
import { useFocusAfterRender } from '../../lib/use-focus-after-render';
import { fieldErrors, firstInvalid } from './form-errors';

/** Not worded by SPEC-2 (docs/decisions/041-health-screens.md). */
export const SAVE_FAILED = 'Could not save the entry. Please try again.';

interface SaveMutation<Body, Saved> {
  mutate: (body: Body, options: { onSuccess: (saved: Saved) => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: Error | null;
}

interface EntryFormOptions<Field extends string, Body, Saved> {
  /** The shared request schema the server parses the body with. */
  schema: WireSchema<unknown>;
  /** The form's fields in screen order: focus goes to the first invalid one. */
  fields: readonly Field[];
  /** Which field a schema issue belongs to, from the first segment of its path. */
  fieldOf: (path: string) => Field;
  /** The id of the control that receives focus for a field. */
  idOf: (field: Field) => string;
  save: SaveMutation<Body, Saved>;
  /** With the record as the server stored it. */
  onSaved: (saved: Saved) => void;
}

/**
 * Validates a dialog's body with the shared schema before it is sent: every message is tied to
 * its field and focus moves to the first invalid one. A valid body is saved; the server's refusal
 * comes back as `serverError`.
 */
export const useEntryForm = <Field extends string, Body, Saved>({
  schema,
  fields,
  fieldOf,
  idOf,
  save,
  onSaved,
}: EntryFormOptions<Field, Body, Saved>) => {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // After each refused submit, once its messages are on screen; typing never moves focus.
  const focusAfterRender = useFocusAfterRender();

  const submit = (body: Body) => {
    const found = fieldErrors(schema, body, fieldOf);
    setErrors(found);
    const first = firstInvalid(fields, found);
    if (first) {
      focusAfterRender(idOf(first));
      save.reset();
      return;
    }
    save.mutate(body, { onSuccess: onSaved });
  };

  return {
    errors,
    submit,
    isSaving: save.isPending,
    serverError: save.error ? errorMessage(save.error, SAVE_FAILED) : null,
  };
};
