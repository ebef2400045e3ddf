/**
 * The baseline of the feed benchmarks: a bare loop of undici requests and JSON.parse over
 * `/api/v1/trades` pages, following the `global_seq` cursor until a short page; optionally
 * held to a request budget (`tokenBucket`).
 */
import { request } from 'undici'

/**
 * Calls `onPage` with each page's trades, in order; resolves after the first short page.
 * `beforeRequest`, when given, is awaited before each request (a pace).
 */
export async function bareTradePages(
  url: string,
  apiKey: string,
  pageSize: number,
  onPage: (trades: readonly { readonly global_seq: number }[]) => void,
  beforeRequest?: () => Promise<void>,
): Promise<void> {
  const headers = { authorization: apiKey }
  let cursor = 0
  for (;;) {
    if (beforeRequest !== undefined) await beforeRequest()
    const { statusCode, body } = await request(
      `${url}/api/v1/trades?global_seq=${cursor}&sort=asc&limit=${pageSize}`,
      { headers },
    )
    const envelope = JSON.parse(await body.text()) as { data: { global_seq: number }[] }
    if (statusCode !== 200) throw new Error(`bare loop: HTTP ${statusCode}`)
    onPage(envelope.data)
    const last = envelope.data.at(-1)
    if (last !== undefined) cursor = last.global_seq
    if (envelope.data.length < pageSize) return
  }
}

/**
 * A request budget for a bare loop: `ratePerSecond` tokens a second, bursts up to
 * `capacity` (default a second's worth), starting full; each call waits for a token. The
 * budget `createVenue`'s `maxRequestsPerSecond` gives a venue.
 */
export function tokenBucket(
  ratePerSecond: number,
  capacity = Math.max(1, ratePerSecond),
): () => Promise<void> {
  let tokens = capacity
  let at = performance.now()
  return async () => {
    for (;;) {
      const now = performance.now()
      tokens = Math.min(capacity, tokens + ((now - at) * ratePerSecond) / 1000)
      at = now
      if (tokens >= 1) {
        tokens -= 1
        return
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - tokens) * 1000) / ratePerSecond))
    }
  }
}
