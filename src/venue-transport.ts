import { asyncScheduler, Subject } from 'rxjs'
import type { HealthBoard } from './core/health.js'
import { PollPacer } from './core/poll-pacer.js'
import { VenueAbortError } from './errors/venue-abort-error.js'
import type { ResolvedVenueOptions } from './options.js'
import { budgetKey } from './redis/redis.js'
import { recordingTransport } from './replay/record.js'
import type { RecordingClock } from './replay/recording-clock.js'
import type { ReplayClock } from './replay/replay-clock.js'
import { replayTransport } from './replay/replay-transport.js'
import { SharedBudget } from './shared-budget/shared-budget.js'
import { schedulerTimers } from './timers.js'
import { closingTransport } from './transport/closing-transport.js'
import { dedupeTransport } from './transport/dedupe-transport.js'
import { TokenBucket } from './transport/token-bucket.js'
import type { Transport } from './transport/transport.js'
import { createUndiciTransport } from './transport/undici-transport.js'

/** The parts of a venue below its streams: one transport, the clock's budget and pacing. */
export interface VenueTransport {
  /** Every request of the venue: merged when identical, paid from the budget. */
  readonly transport: Transport
  /** Emits once when the venue closes. */
  readonly closed: Subject<void>
  readonly pacer: PollPacer
}

/**
 * The venue's transport: the HTTP pool (counted by `onRequest`), identical requests in
 * one flight, each flight paid one token of the budget (the fleet's in Redis when
 * `sharedBudget` is set), all of it closed with the venue: `closed` emits, waiting
 * requests are rejected and `health` completes.
 *
 * @example
 * ```ts
 * const { transport, closed, pacer } = venueTransport(resolveOptions({ baseUrl }), health, undefined)
 * await transport.close() // closed emits; requests waiting for the budget reject
 * ```
 */
export function venueTransport(
  resolved: ResolvedVenueOptions,
  health: HealthBoard,
  onRequest: (() => void) | undefined,
): VenueTransport {
  // One clock for the streams and the budget: the caller's scheduler, or real time.
  const clock =
    resolved.scheduler === asyncScheduler ? {} : { timers: schedulerTimers(resolved.scheduler) }
  const bucket = new TokenBucket(resolved.maxRequestsPerSecond, clock)
  // Replay: the journal answers in place of the HTTP pool, on the recording's clock; the
  // budget and the merging of identical requests above it run as they did when recorded.
  const pool: Transport =
    resolved.replay === undefined
      ? countedPool(httpPool(resolved), onRequest)
      : replayTransport(resolved.replay.file, resolved.scheduler as ReplayClock)
  // The budget of the fleet lives in Redis when `sharedBudget` is set.
  const fleetBudget =
    resolved.sharedBudget === undefined
      ? undefined
      : new SharedBudget(
          resolved.sharedBudget.redis,
          budgetKey(resolved.sharedBudget.prefix, resolved.baseUrl, resolved.apiKey?.reveal()),
          resolved.maxRequestsPerSecond,
          clock,
        )
  // Identical requests share one flight, and a flight waits for one token of the budget.
  // One poll turn is spent per request that asks the budget: the pacer counts the rest.
  const pacer = new PollPacer({
    pacing: resolved.pacing,
    pollsPerSecond: resolved.pollsPerSecond,
    intervalMs: resolved.pollIntervalMs,
    scheduler: resolved.scheduler,
  })
  const shared = dedupeTransport(pool, {
    acquire: (lane, signal) => {
      pacer.spent(lane)
      return fleetBudget === undefined
        ? bucket.acquire(lane, signal)
        : fleetBudget.acquire(lane, signal)
    },
  })
  const closed = new Subject<void>()
  const transport = closingTransport(shared, () => {
    closed.next()
    closed.complete()
    bucket.close(new VenueAbortError('the venue is closed'))
    fleetBudget?.close(new VenueAbortError('the venue is closed'))
    health.close()
  })
  return { transport, closed, pacer }
}

/**
 * The HTTP pool; a recording venue's (`record`) appends each request it sends, and its
 * answer, to the journal, on the venue's clock.
 */
function httpPool(resolved: ResolvedVenueOptions): Transport {
  const { baseUrl, apiKey, scheduler, record } = resolved
  const undici = createUndiciTransport({
    baseUrl,
    dispatcher: resolved.dispatcher,
    connections: resolved.connections,
    maxResponseBytes: resolved.maxResponseBytes,
  })
  if (record === undefined) return undici
  return recordingTransport(undici, {
    file: record.file,
    baseUrl,
    apiKey,
    clock: scheduler as RecordingClock,
  })
}

/** `pool`, with `onRequest` called for each request handed to it. */
function countedPool(pool: Transport, onRequest: (() => void) | undefined): Transport {
  if (onRequest === undefined) return pool
  return {
    request: (request) => {
      onRequest()
      return pool.request(request)
    },
    close: () => pool.close(),
  }
}
