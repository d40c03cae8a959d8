/** DELETE /v1/logs/{logId}: deletes one of the caller's logs; another person's id answers 404. */
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { NotFound } from '../../common/errors';
import { isRecordId, ownerOf } from '../../common/health-records';
import { httpHandler, noContent } from '../../common/http';
import { deleteRecord } from '../../common/repositories/health-records';

export const handler = httpHandler({ auth: 'user' }, async ({ caller, pathParameters }) => {
  const id = pathParameters.logId;
  if (!isRecordId(id) || !(await deleteRecord(ownerOf(caller), 'L', id)))
    throw new NotFound(HEALTH_MESSAGES.logNotFound);
  return noContent();
});
