import type { RestClient } from '../rest/index.js'
import { chainAccount, type Fill, fillsOf } from './fills.js'
import type { StreamContext } from './stream-context.js'

/** The venue's largest page of trades. */
const PAGE = 100

/** The one scan of recent fills a venue keeps (a newer one replaces it). */
const SCAN = 'recent'

/**
 * Every fill of the account after venue time `since` (epoch ms), read from the account's
 * trades (ascending, in full pages) by one scan that every caller of the venue shares when
 * it started no earlier than `notBefore` (the caller's clock, `context.scheduler`); a
 * failed scan is started again by the next caller. `watchOrder` uses it at its start, with
 * `since` a minute before the venue's now: a fill that happened just before the fills tail
 * started is in it, whatever the open list shows. Callers pass `since` a fixed window
 * before the venue's now (that minute): a scan started earlier then reaches back as far as
 * a later caller needs.
 *
 * @example
 * ```ts
 * const fills = await recentFills(context, rest, venueMs - 60_000, startedAt)
 * fills.filter((fill) => fill.orderId === '25') // that order's fills of the last minute
 * ```
 */
export function recentFills(
  context: StreamContext,
  rest: RestClient,
  since: number,
  notBefore: number,
): Promise<Fill[]> {
  const now = context.scheduler.now()
  return context.lookups.recentFillScans.get(SCAN, () => scan(context, rest, since), {
    now,
    notBefore,
  })
}

async function scan(context: StreamContext, rest: RestClient, since: number): Promise<Fill[]> {
  const account = await chainAccount(context, rest)
  const fills: Fill[] = []
  let afterSeq: string | undefined
  for (;;) {
    const page = await rest.trades({
      // Whole seconds, exclusive: one second earlier, so nothing at `since` is left out.
      after: Math.floor(since / 1000) - 1,
      ...(afterSeq === undefined ? {} : { afterSeq }),
      sort: 'asc',
      limit: PAGE,
    })
    for (const trade of page) fills.push(...fillsOf(trade, account))
    const last = page.at(-1)
    if (last === undefined || page.length < PAGE) return fills
    afterSeq = last.global_seq
  }
}
