import { useState, type FormEvent } from 'react';
import { COACH_NOTE_MAX, createNoteRequestSchema } from '../../../../../shared/coaching';
import { MESSAGES } from '../../../../../shared/messages';
import { Alert } from '../../../components/alert';
import { describedBy, FieldShell } from '../../../components/form-field';
import { errorMessage } from '../../../lib/errors';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useCreateClientNote } from '../api/create-client-note';
import { busyButton } from '../../../lib/busy-button';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const SAVE_FAILED = 'Could not save the note. Please try again.';
const FIELD_ID = 'note-text';

/** The schema's message for a text the server would refuse, or undefined. */
const problemWith = (text: string): string | undefined => {
  const parsed = createNoteRequestSchema.safeParse({ text });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

/** A new note to the client, checked with the server's schema before it is sent. */
export function NoteForm({ userId, clientName }: { userId: string; clientName: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState('');
  const focusAfterRender = useFocusAfterRender();
  const create = useCreateClientNote();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStatus('');
    const problem = problemWith(text);
    setError(problem);
    if (problem) {
      focusAfterRender(FIELD_ID);
      return;
    }
    create.mutate(
      { userId, text },
      {
        onSuccess: () => {
          setText('');
          setStatus('Note saved');
        },
      },
    );
  };

  const hint = `${text.length} of ${COACH_NOTE_MAX} characters. ${clientName} sees it on My Coach.`;
  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="note-form-title">
      <h3 id="note-form-title" className="form__title">
        Write a note
      </h3>
      {create.isError && <Alert tone="error">{errorMessage(create.error, SAVE_FAILED)}</Alert>}
      <FieldShell id={FIELD_ID} label="Note" error={error} hint={hint}>
        <textarea
          id={FIELD_ID}
          rows={5}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(FIELD_ID, error, hint)}
          onChange={(event) => {
            setText(event.target.value);
            // Once refused, the message follows the text, so it goes as soon as the text is right.
            if (error) setError(problemWith(event.target.value));
          }}
        />
      </FieldShell>
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          {...busyButton(create.isPending)}
          aria-busy={create.isPending}
        >
          {create.isPending ? MESSAGES.saving : 'Save note'}
        </button>
      </div>
      <p className="save-status" role="status">
        {status}
      </p>
    </form>
  );
}
