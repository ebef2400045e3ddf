import {
  createVenue,
  type MyTradesOptions,
  type Venue,
  type VenueOptions,
} from '../../src/index.js'

/**
 * Calls `use` with a venue on a benchmark server (no rate limit, and a tail poll only after
 * a minute, so none comes during a run); closes the venue after it.
 */
export async function withBenchVenue<T>(
  server: { readonly url: string; readonly apiKey: string },
  use: (venue: Venue) => Promise<T>,
  options: Partial<VenueOptions> = {},
): Promise<T> {
  const venue = createVenue({
    baseUrl: server.url,
    apiKey: server.apiKey,
    maxRequestsPerSecond: 1_000_000,
    pollIntervalMs: 60_000,
    ...options,
  })
  try {
    return await use(venue)
  } finally {
    await venue.close()
  }
}

/**
 * Runs `venue.watchMyTrades(options)` until its backfill is done (the first progress of
 * the tail phase), calling `onItem` with the running count; resolves to the items read:
 * those delivered, and the newest few the settle window still holds (trades of the last
 * seconds, delivered once they settle: not waited for, as that is latency, not
 * throughput).
 */
export function runToTail(
  venue: Venue,
  options: MyTradesOptions,
  onItem: (items: number) => void = () => undefined,
): Promise<number> {
  let items = 0
  return new Promise<number>((resolve, reject) => {
    const subscription = venue
      .watchMyTrades({
        ...options,
        onProgress: (progress) => {
          if (progress.phase !== 'tail') return
          // Unsubscribing from inside the feed's own callback: leave that call first.
          queueMicrotask(() => subscription.unsubscribe())
          resolve(items + progress.held)
        },
      })
      .subscribe({
        next: () => {
          items += 1
          onItem(items)
        },
        error: reject,
      })
  })
}
