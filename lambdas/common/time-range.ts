/**
 * The sort-key condition of items filed under `{UTC ISO time}#{id}` (health records, audit events)
 * between two times, both included: appended to a key condition on the partition.
 */

/** Sorts after every `#{id}` of the same time (ids are lowercase hex and dashes). */
const AFTER_ANY_ID = '#~';

export interface TimeRange {
  /** `''` or ` AND sk ...`. */
  readonly condition: string;
  readonly values: Record<string, string>;
}

export const timeRange = (from: string | undefined, to: string | undefined): TimeRange => {
  if (from !== undefined && to !== undefined)
    return {
      condition: ' AND sk BETWEEN :from AND :to',
      values: { ':from': from, ':to': `${to}${AFTER_ANY_ID}` },
    };
  if (from !== undefined) return { condition: ' AND sk >= :from', values: { ':from': from } };
  if (to !== undefined) return { condition: ' AND sk <= :to', values: { ':to': `${to}${AFTER_ANY_ID}` } };
  return { condition: '', values: {} };
};
