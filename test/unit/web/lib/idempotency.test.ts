import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createAnswered,
  forgetUnansweredCreates,
  idempotencyKeyFor,
  SAME_CREATE_MS,
} from '../../../../web/src/lib/idempotency';

/** A reading as the health dialog sends it: a new object on each press of Save. */
const reading = () => ({ type: 'weight', value: 80, takenAt: '2026-11-27T10:00:00.000Z' });

describe('idempotencyKeyFor', () => {
  afterEach(() => {
    forgetUnansweredCreates();
    vi.restoreAllMocks();
  });

  it('gives both tries of one create the same key, and Save pressed again without an answer the same too', () => {
    const first = reading();
    const key = idempotencyKeyFor(first);
    expect(idempotencyKeyFor(first)).toBe(key);
    expect(idempotencyKeyFor(reading())).toBe(key);
    expect(idempotencyKeyFor({ ...reading(), value: 81 })).not.toBe(key);
  });

  it('gives the same content a new key once the create was answered', () => {
    const key = idempotencyKeyFor(reading());
    createAnswered(key);
    expect(idempotencyKeyFor(reading())).not.toBe(key);
  });

  it(`gives the same content a new key after ${SAME_CREATE_MS / 60_000} minutes without an answer`, () => {
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    const key = idempotencyKeyFor(reading());
    clock.mockReturnValue(now + SAME_CREATE_MS - 1);
    expect(idempotencyKeyFor(reading())).toBe(key);
    clock.mockReturnValue(now + SAME_CREATE_MS);
    const later = idempotencyKeyFor(reading());
    expect(later).not.toBe(key);
    // The new key is the one kept from then on.
    expect(idempotencyKeyFor(reading())).toBe(later);
  });

  it('keeps nothing of the last person after a change of person', () => {
    const key = idempotencyKeyFor(reading());
    forgetUnansweredCreates();
    expect(idempotencyKeyFor(reading())).not.toBe(key);
  });
});
