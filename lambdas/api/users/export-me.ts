/**
 * GET /v1/users/me/export: a download of everything the caller's account holds: as JSON, the account
 * (email, roles, status, since when), the profile, their passkeys as Profile lists them, their coach,
 * every measurement, every daily log and every note their coaches wrote to them; or the profile and
 * measurements as a FHIR R4 Bundle.
 * Audited (SPEC-2 section 4, "data exported") once everything is read and before it is answered: when
 * the event cannot be written, nothing is exported (503); it is written only while the caller's session
 * still passes the session check (else 401, nothing exported). An export over what one Lambda answer
 * can carry (6 MB) is refused (422) before its event.
 */
import { exportQuerySchema, type HealthLog, type Measurement } from '../../../shared/health-schemas';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { DEFAULT_TIMEZONE } from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import type { UserProfile } from '../../../shared/schemas';
import { originOf, recordAudit } from '../../common/audit';
import { calendarDayIn } from '../../common/calendar-day';
import { NotFound, UnprocessableContent } from '../../common/errors';
import { fhirBundle } from '../../common/fhir-export';
import { fitsOneAnswer, httpHandler, ok, type HttpResult } from '../../common/http';
import { whileSessionHolds } from '../../common/session';
import { coachOf } from '../../common/coaching';
import { listedPasskeys } from '../../common/passkey-view';
import { getAccount } from '../../common/repositories/accounts';
import { listAllNotes } from '../../common/repositories/coaching';
import { listAllRecords } from '../../common/repositories/health-records';
import { getProfile } from '../../common/repositories/profiles';

const download = (name: string) => ({ 'Content-Disposition': `attachment; filename="${name}"` });

/**
 * The JSON export: the account as Profile and My Coach show it (its email, roles, status and
 * creation, its passkeys, its coach), the profile, every measurement, log and note written to them.
 */
const jsonExport = async (userId: string, profile: UserProfile, measurements: Measurement[]) => {
  const [account, coach, logs, coachNotes] = await Promise.all([
    getAccount(userId),
    coachOf(userId),
    listAllRecords(userId, 'L') as Promise<HealthLog[]>,
    listAllNotes(userId),
  ]);
  return {
    account: account && {
      email: account.email,
      roles: account.roles,
      status: account.status,
      createdAt: account.createdAt,
    },
    profile,
    passkeys: await listedPasskeys(account?.credentialIds ?? []),
    coach,
    measurements,
    logs,
    coachNotes,
  };
};

export const handler = httpHandler(
  { auth: 'user', query: exportQuerySchema },
  async ({ query, caller, event }) => {
    const profile = await getProfile(caller.sub);
    if (!profile) throw new NotFound(API_MESSAGES.profileNotFound);
    const exportedAt = new Date().toISOString();
    const day = calendarDayIn(exportedAt, profile.timezone ?? DEFAULT_TIMEZONE);
    const measurements = (await listAllRecords(caller.sub, 'M')) as Measurement[];
    const result: HttpResult =
      query.format === 'fhir'
        ? {
            ...ok(fhirBundle(profile, measurements, exportedAt)),
            headers: {
              'Content-Type': 'application/fhir+json',
              ...download(`health-records-${day}.fhir.json`),
            },
          }
        : {
            ...ok({ exportedAt, ...(await jsonExport(caller.sub, profile, measurements)) }),
            headers: download(`health-records-${day}.json`),
          };
    // Over what a Lambda may answer, the file would be lost on the way (API Gateway's 502) after its
    // event said it was exported: refused first, with nothing recorded (ADR 040).
    if (!fitsOneAnswer(result)) throw new UnprocessableContent(HEALTH_MESSAGES.exportTooLarge);
    // A session signed out (or an account disabled) while the export was read exports nothing (401).
    await recordAudit(
      originOf(event),
      {
        type: 'data.exported',
        actorId: caller.sub,
        subjectId: caller.sub,
        details: { format: query.format },
      },
      { onlyIf: whileSessionHolds(caller) },
    );
    return result;
  },
);
