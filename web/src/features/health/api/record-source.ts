/**
 * Whose health records a read asks for. The signed-in person's own are under `/v1`; their coach
 * reads a client's under `/v1/coach/clients/{userId}`, with the same query and answer (SPEC-2
 * section 2). The query keys keep the two apart, so a coach's own entries never refresh, and a
 * client's records never stand in for, the other's.
 */
export interface RecordSource {
  /** What `/measurements` and `/logs` follow. */
  basePath: string;
  /** What the query keys start with. */
  keyPrefix: readonly string[];
  /**
   * Someone else's records: dropped from the cache as soon as no screen shows them, so each visit is
   * a read the server checks and audits, never a page shown from memory after access ended
   * (docs/decisions/043-coaching-screens.md).
   */
  forgetOnLeave?: boolean;
}

export const OWN_RECORDS: RecordSource = { basePath: '/v1', keyPrefix: ['health'] };

export const clientRecords = (userId: string): RecordSource => ({
  basePath: `/v1/coach/clients/${encodeURIComponent(userId)}`,
  keyPrefix: ['health', 'client', userId],
  forgetOnLeave: true,
});

/** The cache options of a read from `source`: TanStack's `gcTime` 0 drops it once unobserved. */
export const cacheOf = (source: RecordSource): { gcTime?: number } =>
  source.forgetOnLeave ? { gcTime: 0 } : {};
