/**
 * How many bytes of request bodies `npm start` holds at once, across every connection. A body declared
 * no larger than the free size (every valid MCP message) is read at once. A larger one is read a window
 * at a time: it counts the next window (64 KiB: one read) against one shared budget before reading it,
 * and so holds what it received plus at most one window, never what it announced: slow senders cannot
 * keep honest bodies waiting unless there are as many of them as the budget has windows. When the
 * budget is spent, a body that needs its next window stops reading (TCP backpressure holds the rest on
 * the client) until bytes come back, in arrival order; the first body to wait reads on anyway, so bodies
 * that each hold part of the budget never wait on each other for good. Bodies thus hold at most the
 * budget, one body past it (at most its route's limit) and, for each body being read, what its last
 * read brought beyond its window (at most 64 KiB); one that cannot finish is cut off by the request
 * timeout.
 */

/** One body's bytes against the budget. */
export interface BodyAccount {
  /** Counts bytes the body received (0: before the first); false: stop reading until `resume` is called. */
  take(bytes: number, resume: () => void): boolean
  /** Gives every byte back (the answer is written, or the request ended); idempotent. */
  release(): void
}

/** A body that counts against nothing. */
export const FREE_BODY: BodyAccount = { take: () => true, release: () => {} }

interface Holder {
  /** Bytes counted against the budget for this body: what it received and what is left of its window. */
  counted: number
  received: number
  resume: (() => void) | null
}

export class BodyBudget {
  /** Bytes the large bodies being read may hold together. */
  readonly limitBytes: number
  /** Bodies declared no larger than this are read without counting. */
  readonly freeBytesPerBody: number
  /** What a body counts before reading it. */
  readonly windowBytes: number
  private used = 0
  /** The one body allowed past the budget: the first that had to wait. */
  private pastBudget: Holder | null = null
  private readonly queue: Holder[] = []

  constructor(limitBytes: number, freeBytesPerBody: number, windowBytes = 64 * 1024) {
    this.limitBytes = limitBytes
    this.freeBytesPerBody = freeBytesPerBody
    this.windowBytes = windowBytes
  }

  get usedBytes(): number {
    return this.used
  }

  get waiting(): number {
    return this.queue.length
  }

  /** The account of a body declared `declaredBytes` long (undefined: not declared, e.g. chunked). */
  open(declaredBytes: number | undefined): BodyAccount {
    if (declaredBytes !== undefined && declaredBytes <= this.freeBytesPerBody) return FREE_BODY
    const holder: Holder = { counted: 0, received: 0, resume: null }
    return {
      take: (bytes, resume) => {
        holder.received += bytes
        // One read may run past the window: what arrived counts as it is.
        if (holder.received > holder.counted) this.count(holder, holder.received - holder.counted)
        if (holder.received < holder.counted) return true
        if (this.used + this.windowBytes <= this.limitBytes || this.pastBudget === holder || !this.pastBudget) {
          if (this.used + this.windowBytes > this.limitBytes) this.pastBudget = holder
          this.count(holder, this.windowBytes)
          return true
        }
        if (!holder.resume) this.queue.push(holder)
        holder.resume = resume
        return false
      },
      release: () => {
        this.used -= holder.counted
        holder.counted = holder.received = 0
        const index = this.queue.indexOf(holder)
        if (index >= 0) this.queue.splice(index, 1)
        if (this.pastBudget === holder) this.pastBudget = null
        this.wake()
      },
    }
  }

  private count(holder: Holder, bytes: number): void {
    holder.counted += bytes
    this.used += bytes
  }

  /** Gives waiting bodies their next window: the first past the budget if none is, the rest while windows fit. */
  private wake(): void {
    if (!this.pastBudget && this.queue[0]) this.pastBudget = this.queue[0]
    for (let next = this.queue[0]; next && (next === this.pastBudget || this.used + this.windowBytes <= this.limitBytes); next = this.queue[0]) {
      this.queue.shift()
      this.count(next, this.windowBytes)
      const resume = next.resume
      next.resume = null
      resume?.()
    }
  }
}
