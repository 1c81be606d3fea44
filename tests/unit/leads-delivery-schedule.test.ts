import { describe, expect, it } from 'vitest'
import { DELIVERY_SCHEDULE, nextAttemptAt, retryDelayMs } from '../../lib/leads/delivery-schedule.ts'

describe('retryDelayMs', () => {
  it('waits 30 s after the first failure and doubles up to one hour', () => {
    const seconds = Array.from({ length: 10 }, (_, index) => retryDelayMs(index + 1, () => 0) / 1000)
    expect(seconds).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600])
  })

  it('stretches a delay by at most a fifth at random', () => {
    expect(retryDelayMs(1, () => 0.999_999)).toBe(36_000)
    expect(retryDelayMs(8, () => 0.5)).toBe(3_960_000)
  })

  it('stays at one hour however many attempts failed', () => {
    expect(retryDelayMs(1_000, () => 0)).toBe(3_600_000)
  })
})

describe('nextAttemptAt', () => {
  const received = new Date('2026-11-26T00:00:00.000Z')

  it('is the delay after the failure while the lead is younger than the give-up age (3 days)', () => {
    const failedAt = new Date(received.getTime() + 10_000)
    expect(nextAttemptAt(received, 1, failedAt, () => 0)).toEqual(new Date(failedAt.getTime() + 30_000))
    const lastChance = new Date(received.getTime() + DELIVERY_SCHEDULE.giveUpAfterMs - 1)
    expect(nextAttemptAt(received, 40, lastChance, () => 0)).toEqual(new Date(lastChance.getTime() + 3_600_000))
  })

  it('is null (give up) once the lead is 3 days old', () => {
    expect(DELIVERY_SCHEDULE.giveUpAfterMs).toBe(3 * 24 * 3_600_000)
    expect(nextAttemptAt(received, 5, new Date(received.getTime() + DELIVERY_SCHEDULE.giveUpAfterMs), () => 0)).toBeNull()
  })
})
