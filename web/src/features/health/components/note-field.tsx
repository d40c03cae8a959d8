import { NOTE_MAX } from '../../../../../shared/health';
import { describedBy, FieldShell } from '../../../components/form-field';

interface NoteFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** An optional free-text note (at most 500 characters, SPEC-2 1.1). */
export function NoteField({ id, value, onChange, error }: NoteFieldProps) {
  const hint = `Optional, up to ${NOTE_MAX} characters.`;
  return (
    <FieldShell id={id} label="Note" error={error} hint={hint}>
      <textarea
        id={id}
        rows={2}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldShell>
  );
}
