/** GET /v1/coach/clients/{userId}/notes: the client's coach notes, newest first, for their coach only. */
import { recordClientRead, requireCoachOf } from '../../common/coaching';
import { httpHandler, ok } from '../../common/http';
import { listNotes } from '../../common/repositories/coaching';

export const handler = httpHandler({ auth: 'coach' }, async ({ caller, pathParameters, event }) => {
  const clientId = await requireCoachOf(caller, pathParameters.userId);
  const notes = await listNotes(clientId);
  await recordClientRead(event, caller, clientId, { read: 'notes' });
  return ok({ notes });
});
