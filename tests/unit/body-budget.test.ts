import { describe, expect, it } from 'vitest'
import { BodyBudget } from '../../lib/http/body-budget.ts'

const never = () => {}

describe('BodyBudget', () => {
  it('counts nothing for a body declared no larger than the free size', () => {
    const budget = new BodyBudget(100, 10, 20)
    const account = budget.open(10)
    expect(account.take(0, never)).toBe(true)
    expect(account.take(10, never)).toBe(true)
    expect(budget.usedBytes).toBe(0)
  })

  it('counts what a body received plus one window, not what it announced: two slow bodies leave room for a third', () => {
    const budget = new BodyBudget(100, 10, 20)
    const [chunked, announced, third] = [budget.open(undefined), budget.open(100), budget.open(60)]
    for (const slow of [chunked, announced]) {
      expect(slow.take(0, never)).toBe(true)
      expect(slow.take(1, never)).toBe(true)
    }
    expect(budget.usedBytes).toBe(40)
    expect(third.take(0, never)).toBe(true)
    expect(third.take(20, never)).toBe(true)
    expect(third.take(20, never)).toBe(true)
    expect(budget.usedBytes).toBe(100)
    expect(budget.waiting).toBe(0)
  })

  it('counts a read that runs past the window as it is', () => {
    const budget = new BodyBudget(100, 10, 20)
    const account = budget.open(undefined)
    account.take(0, never)
    expect(account.take(30, never)).toBe(true)
    expect(budget.usedBytes).toBe(50)
  })

  it('lets the first body that finds the budget spent read on past it; the next waits until a window fits again', () => {
    const budget = new BodyBudget(100, 10, 50)
    const [first, second, past, next] = [budget.open(undefined), budget.open(undefined), budget.open(undefined), budget.open(undefined)]
    let resumed = false
    expect(first.take(0, never)).toBe(true)
    expect(second.take(0, never)).toBe(true)
    expect(past.take(0, never)).toBe(true)
    expect(next.take(0, () => (resumed = true))).toBe(false)
    expect([budget.usedBytes, budget.waiting]).toEqual([150, 1])
    first.release()
    first.release()
    expect(resumed).toBe(false)
    second.release()
    expect(resumed).toBe(true)
    expect([budget.usedBytes, budget.waiting]).toEqual([100, 0])
  })

  it('when the body past the budget is done, the first waiting body goes past it next; the others wait until a window fits', () => {
    const budget = new BodyBudget(100, 10, 100)
    const [full, past, next, last] = [budget.open(undefined), budget.open(undefined), budget.open(undefined), budget.open(undefined)]
    const resumed: string[] = []
    full.take(0, never)
    expect(past.take(0, never)).toBe(true)
    expect(next.take(0, () => resumed.push('next'))).toBe(false)
    expect(last.take(0, () => resumed.push('last'))).toBe(false)
    past.release()
    expect(resumed).toEqual(['next'])
    expect(budget.waiting).toBe(1)
    full.release()
    expect(resumed).toEqual(['next'])
    next.release()
    expect(resumed).toEqual(['next', 'last'])
    expect([budget.usedBytes, budget.waiting]).toEqual([100, 0])
  })

  it('drops a body that ends while it waits, and gives every byte back', () => {
    const budget = new BodyBudget(100, 10, 100)
    const [full, past, waiting] = [budget.open(undefined), budget.open(undefined), budget.open(undefined)]
    let resumed = false
    full.take(0, never)
    past.take(0, never)
    expect(waiting.take(0, () => (resumed = true))).toBe(false)
    waiting.release()
    expect(budget.waiting).toBe(0)
    full.release()
    past.release()
    expect(resumed).toBe(false)
    expect(budget.usedBytes).toBe(0)
  })
})
