import { asyncScheduler } from 'rxjs'
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
  const clock = context.scheduler ?? asyncScheduler
  const { lookups } = context
  let offset = lookups.clockOffset
  if (offset === undefined) {
    const sent = clock.now()
    const asked = rest.ping().then((ping) => ping.timestamp - (sent + clock.now()) / 2)
    lookups.clockOffset = asked
    asked.catch(() => {
      if (lookups.clockOffset === asked) lookups.clockOffset = undefined
    })
    offset = asked
  }
  return clock.now() + (await offset)
}
