import type { MarketDataSource } from '../rest/index.js'
import { polledSet, type StreamSet } from './catalogue.js'
import type { StreamContext } from './stream-context.js'

export type { StreamSet } from './catalogue.js'

/**
 * The {@link StreamSet} that polls the venue: each relayed stream of the catalogue, polled
 * on `context` (`marketData`: the venue's default market data).
 *
 * @example
 * ```ts
 * polledStreams(context, 'v2').watchPools().subscribe((pools) => console.log(pools.length))
 * ```
 */
export function polledStreams(context: StreamContext, marketData: MarketDataSource): StreamSet {
  return polledSet({ context, marketData })
}
