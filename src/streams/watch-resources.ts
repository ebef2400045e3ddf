import type { Observable } from 'rxjs'
import { poolSegment } from '../rest/index.js'
import type { AccountInfo } from '../schemas/account-info.js'
import type { PoolDetail } from '../schemas/pool-detail.js'
import type { PoolSummary } from '../schemas/pool-summary.js'
import type { SystemInfo } from '../schemas/system-info.js'
import type { Token } from '../schemas/token.js'
import { polledResource } from './polled-resource.js'
import type { StreamContext } from './stream-context.js'
import { streamKey } from './stream-key.js'

/** Retries of the ambiguous 500 before a single-resource stream gives up. */
const SINGLE_RESOURCE_AMBIGUOUS_RETRIES = 3

/** Every pool summary; emits when any pool deep-changed. */
export function watchPools(context: StreamContext): Observable<PoolSummary[]> {
  return polledResource(context, streamKey('watchPools'), (rest, signal) =>
    rest.pools(undefined, { signal }),
  )
}

/** One pool's detail by id or symbol; emits when it deep-changed. Throws `VenueInputError` for a bad id. */
export function watchPool(
  context: StreamContext,
  idOrSymbol: number | string,
): Observable<PoolDetail> {
  // Keyed by the path segment, so that watchPool(1) and watchPool('1') share a poller.
  const segment = poolSegment(idOrSymbol, 'watchPool')
  return polledResource(
    context,
    streamKey('watchPool', [decodeURIComponent(segment)]),
    (rest, signal) => rest.pool(idOrSymbol, { signal }),
    { maxAmbiguousRetries: SINGLE_RESOURCE_AMBIGUOUS_RETRIES },
  )
}

/** Every token; emits when any token deep-changed. */
export function watchTokens(context: StreamContext): Observable<Token[]> {
  return polledResource(context, streamKey('watchTokens'), (rest, signal) =>
    rest.tokens({ signal }),
  )
}

/** The venue's system info; emits when it changed. */
export function watchSystemInfo(context: StreamContext): Observable<SystemInfo> {
  return polledResource(context, streamKey('watchSystemInfo'), (rest, signal) =>
    rest.systemInfo({ signal }),
  )
}

/** The account behind the API key; emits when it changed. */
export function watchAccount(context: StreamContext): Observable<AccountInfo> {
  return polledResource(context, streamKey('watchAccount'), (rest, signal) =>
    rest.accountInfo({ signal }),
  )
}
