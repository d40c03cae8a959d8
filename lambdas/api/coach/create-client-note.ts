/**
 * POST /v1/coach/clients/{userId}/notes: the coach writes a note to the client. It is stored only
 * while the caller is the client's coach and their session still passes the session check (both
 * checked again inside the transaction that stores it: else 403, or 401 for the session), with
 * the coach's last-note time (which clears Pending Reviews) and the audit event. Sent again with the
 * same `Idempotency-Key`, it stores nothing and answers the note the first one stored; with the same key
 * and another body, it stores nothing and answers 422 (ADR 061).
 */
import { randomUUID } from 'node:crypto';
import { COACHING_MESSAGES, createNoteRequestSchema, type CoachNote } from '../../../shared/coaching';
import { auditTransactItem, originOf } from '../../common/audit';
import { getPerson, requireCoachOf } from '../../common/coaching';
import { Forbidden } from '../../common/errors';
import { created, httpHandler, idempotencyKeyOf, requestFingerprint } from '../../common/http';
import { putNote } from '../../common/repositories/coaching';
import { callerSessionCheckItem } from '../../common/session';

const displayName = (person: { preferredName?: string; familyName?: string } | undefined) =>
  [person?.preferredName, person?.familyName].filter(Boolean).join(' ') || undefined;

export const handler = httpHandler(
  { auth: 'coach', body: createNoteRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const idempotencyKey = idempotencyKeyOf(event);
    const clientId = await requireCoachOf(caller, pathParameters.userId);
    const coachName = displayName(await getPerson(caller.sub));
    const note: CoachNote = {
      noteId: randomUUID(),
      clientId,
      coachId: caller.sub,
      ...(coachName !== undefined && { coachName }),
      text: body.text,
      createdAt: new Date().toISOString(),
    };
    const audit = auditTransactItem(originOf(event), {
      type: 'note.created',
      actorId: caller.sub,
      subjectId: clientId,
      details: { noteId: note.noteId },
    });
    const stored = await putNote(
      note,
      callerSessionCheckItem(caller),
      audit,
      idempotencyKey !== undefined
        ? { key: idempotencyKey, fingerprint: requestFingerprint(body) }
        : undefined,
    );
    if (!stored) throw new Forbidden(COACHING_MESSAGES.notYourClient);
    return created(stored);
  },
);
