/**
 * DELETE /v1/measurements/{measurementId}: deletes one of the caller's measurements. Another
 * person's id answers 404 like an unknown one: the caller cannot even learn that it exists.
 */
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { NotFound } from '../../common/errors';
import { isRecordId, ownerOf } from '../../common/health-records';
import { httpHandler, noContent } from '../../common/http';
import { deleteRecord } from '../../common/repositories/health-records';

export const handler = httpHandler({ auth: 'user' }, async ({ caller, pathParameters }) => {
  const id = pathParameters.measurementId;
  if (!isRecordId(id) || !(await deleteRecord(ownerOf(caller), 'M', id)))
    throw new NotFound(HEALTH_MESSAGES.measurementNotFound);
  return noContent();
});
