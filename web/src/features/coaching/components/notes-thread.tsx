import { COACHING_MESSAGES, type CoachNote } from '../../../../../shared/coaching';
import { EmptyState } from '../../../components/empty-state';
import { formatDateTime } from '../../../lib/format';

interface NotesThreadProps {
  notes: readonly CoachNote[];
  /** Names by user id, for a note stored without its author's name. */
  names?: ReadonlyMap<string, string>;
}

const newestFirst = (a: CoachNote, b: CoachNote) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/** Coach notes, newest first, each with its author and date; 'No notes yet.' when there are none. */
export function NotesThread({ notes, names }: NotesThreadProps) {
  if (!notes.length) return <EmptyState>{COACHING_MESSAGES.noNotes}</EmptyState>;
  return (
    <ol className="note-list" aria-label="Notes, newest first">
      {[...notes].sort(newestFirst).map((note) => (
        <li key={note.noteId} className="note">
          <p className="note__meta">
            <span className="note__author">{note.coachName ?? names?.get(note.coachId) ?? 'Coach'}</span>
            <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
          </p>
          <p className="note__text">{note.text}</p>
        </li>
      ))}
    </ol>
  );
}
