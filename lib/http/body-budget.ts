/**
 * How many bytes of request bodies `npm start` reads at once, across every connection. A body no
 * larger than the free size (every valid MCP message) is read at once; a larger one first reserves
 * its size (its Content-Length, else the route's limit) from one shared budget, in arrival order, and
 * is not read at all until its turn: meanwhile TCP backpressure holds its bytes on the client. However
 * many large uploads arrive, the server holds at most the budget plus the small bodies, and every
 * upload that gets its turn completes; one that waits too long is cut off by the request timeout.
 */

export type ReleaseBody = () => void

interface Waiter {
  bytes: number
  grant: (release: ReleaseBody) => void
}

export class BodyBudget {
  /** Bytes the large bodies being read may hold together. */
  readonly limitBytes: number
  /** Bodies up to this size are read without a reservation. */
  readonly freeBytesPerBody: number
  private used = 0
  private readonly queue: Waiter[] = []

  constructor(limitBytes: number, freeBytesPerBody: number) {
    this.limitBytes = limitBytes
    this.freeBytesPerBody = freeBytesPerBody
  }

  get usedBytes(): number {
    return this.used
  }

  get waiting(): number {
    return this.queue.length
  }

  /**
   * Resolves with the function that gives the bytes back, once `bytes` fit (a body larger than the
   * whole budget goes alone). `cancelled` drops the request from the queue if it ends while waiting.
   */
  reserve(bytes: number, cancelled: (cancel: () => void) => void): Promise<ReleaseBody> {
    if (bytes <= this.freeBytesPerBody) return Promise.resolve(() => {})
    return new Promise((resolve) => {
      const waiter: Waiter = { bytes, grant: resolve }
      this.queue.push(waiter)
      cancelled(() => {
        const index = this.queue.indexOf(waiter)
        if (index >= 0) this.queue.splice(index, 1)
      })
      this.grantWaiting()
    })
  }

  private grantWaiting(): void {
    for (let next = this.queue[0]; next && (this.used === 0 || this.used + next.bytes <= this.limitBytes); next = this.queue[0]) {
      this.queue.shift()
      this.used += next.bytes
      let released = false
      const bytes = next.bytes
      next.grant(() => {
        if (released) return
        released = true
        this.used -= bytes
        this.grantWaiting()
      })
    }
  }
}
