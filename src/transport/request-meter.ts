import { Agent, type Dispatcher } from 'undici'

/**
 * An undici dispatcher that counts the requests it sends, for the demo's request-budget
 * gauge: `perSecond()` is the number sent in the last second (a ring of 10 slots of
 * 100 ms each, so the figure moves smoothly and memory stays fixed).
 */
export interface RequestMeter {
  readonly dispatcher: Dispatcher
  /** Requests sent in the last second. */
  perSecond(): number
  /** Requests sent since the start. */
  total(): number
  close(): Promise<void>
}

const SLOTS = 10
const SLOT_MS = 100

export function requestMeter(now: () => number = () => performance.now()): RequestMeter {
  const counts = new Array<number>(SLOTS).fill(0)
  let slot = Math.floor(now() / SLOT_MS)
  let sent = 0
  // Moves the ring on to the current slot, zeroing the slots passed over.
  const advance = () => {
    const current = Math.floor(now() / SLOT_MS)
    for (let s = Math.max(slot + 1, current - SLOTS + 1); s <= current; s += 1) {
      counts[s % SLOTS] = 0
    }
    slot = Math.max(slot, current)
  }
  const agent = new Agent({ connections: 8 })
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    advance()
    counts[slot % SLOTS] = (counts[slot % SLOTS] ?? 0) + 1
    sent += 1
    return dispatch(options, handler)
  })
  return {
    dispatcher,
    perSecond() {
      advance()
      return counts.reduce((sum, n) => sum + n, 0)
    },
    total: () => sent,
    close: () => agent.close(),
  }
}
