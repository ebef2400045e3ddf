import type { MyTradesOptions, Venue } from '../../src/index.js'

/**
 * Runs `venue.watchMyTrades(options)` until its backfill is done (the first progress of
 * the tail phase), calling `onItem` with the running count; resolves to the item count.
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
          resolve(items)
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
