import { describe, expect, it } from 'vitest'
import { BodyBudget } from '../../lib/http/body-budget.ts'

const never = () => {}

describe('BodyBudget', () => {
  it('lets a body no larger than the free size through without a reservation', async () => {
    const budget = new BodyBudget(100, 10)
    const release = await budget.reserve(10, never)
    expect(budget.usedBytes).toBe(0)
    release()
    expect(budget.usedBytes).toBe(0)
  })

  it('grants large bodies in arrival order while they fit, the rest when bytes come back', async () => {
    const budget = new BodyBudget(100, 10)
    const granted: string[] = []
    const first = budget.reserve(60, never).then((release) => {
      granted.push('first')
      return release
    })
    const second = budget.reserve(60, never).then((release) => {
      granted.push('second')
      return release
    })
    const third = budget.reserve(30, never).then((release) => {
      granted.push('third')
      return release
    })
    const releaseFirst = await first
    await Promise.resolve()
    // The third would fit, but waits behind the second: arrival order, so no large upload starves.
    expect(granted).toEqual(['first'])
    expect(budget.usedBytes).toBe(60)
    expect(budget.waiting).toBe(2)
    releaseFirst()
    releaseFirst()
    await Promise.all([second, third])
    expect(granted).toEqual(['first', 'second', 'third'])
    expect(budget.usedBytes).toBe(90)
  })

  it('lets a body larger than the whole budget go alone', async () => {
    const budget = new BodyBudget(100, 10)
    const release = await budget.reserve(500, never)
    expect(budget.usedBytes).toBe(500)
    release()
    expect(budget.usedBytes).toBe(0)
  })

  it('drops a request that ends while it waits, and never grants it', async () => {
    const budget = new BodyBudget(100, 10)
    const release = await budget.reserve(100, never)
    let cancel = never
    let granted = false
    void budget.reserve(50, (onEnd) => (cancel = onEnd)).then(() => (granted = true))
    expect(budget.waiting).toBe(1)
    cancel()
    expect(budget.waiting).toBe(0)
    release()
    await Promise.resolve()
    expect(granted).toBe(false)
    expect(budget.usedBytes).toBe(0)
  })
})
