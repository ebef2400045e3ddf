import type { RestClient } from '../rest/index.js'
import type { StreamContext } from './stream-context.js'

/**
 * The venue's time now, epoch ms, as the venue's clock reads it: this process's clock (the
 * venue's scheduler) plus an offset measured once per venue with `/ping` (the venue answers
 * whole seconds, so it is good to about a second). Order times are the venue's: comparing
 * them with this process's clock would go wrong by any skew between the two (a test venue
 * may even run in another year). A failed ping is asked again by the next caller.
 *
 * @example
 * ```ts
 * const venueMs = await venueNow(context, rest) // e.g. 1700000098000 on a simulator
 * ```
 */
export async function venueNow(context: StreamContext, rest: RestClient): Promise<number> {
  const { lookups, scheduler: clock } = context
  const offset = lookups.clockOffset.get('offset', () => {
    const sent = clock.now()
    return rest.ping().then((ping) => {
      const answered = clock.now()
      const offset = ping.timestamp - (sent + answered) / 2
      // A lower bound: the round trip's half, and the second the venue's answer rounds to.
      lookups.clockLowerOffset = offset - (answered - sent) / 2 - 1_000
      return offset
    })
  })
  return clock.now() + (await offset)
}

/**
 * The venue's clock at this process's time `at` (the venue's scheduler clock), epoch ms, as
 * a lower bound (what the venue read then, or earlier by up to about a second), once a
 * {@link venueNow} answered; `undefined` before.
 *
 * @example
 * ```ts
 * await venueNow(context, rest)
 * venueClockAt(context, scheduler.now()) // e.g. 1700000097000 on a simulator at ...98.4 s
 * ```
 */
export function venueClockAt(context: StreamContext, at: number): number | undefined {
  const offset = context.lookups.clockLowerOffset
  return offset === undefined ? undefined : at + offset
}
