/**
 * The life of one relayed stream in a relay, as a pure reducer: what Redis, the stream and
 * the clock did goes in (the lease answered, the takeover read, a publish written, a
 * renewal's answer, a timer, stop), the next state and what to do next come out (ask for
 * the lease, read where the last relay left the stream, subscribe, renew, drain, report,
 * wait, release). No I/O and no timers here: `session-publisher.ts` does those.
 *
 * @packageDocumentation
 */
import { backoffDelay } from '../core/retry-backoff.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'

/** What a stream's life needs to know: its name (for messages) and the lease's length. */
export interface SessionSettings {
  /** The stream's name (`depth:1`, `my-trades`). */
  readonly name: string
  /** A standby takes the stream over at most this long after its relay died, ms. */
  readonly leaseMs: number
}

/** How a session ended. */
export type SessionEnd =
  /** The lease is not this relay's any more (renewal or publish), or the stream completed. */
  | { readonly type: 'lost' }
  /** Redis or the stream failed: a retry after a backoff. */
  | { readonly type: 'failed'; readonly error: unknown }
  /** The relay is closing. */
  | { readonly type: 'stopped' }

/**
 * Where a stream is in its life. `sessions` counts the sessions started (the latest one's
 * number: its publishes are fenced by it); `holding` says whether this relay took the lease
 * the last time it asked (it gives it up when it closes); `failures` counts Redis failures
 * in a row (the backoff grows with it).
 */
export type SessionLife =
  /** Made, not started. */
  | { readonly kind: 'idle' }
  /** Asking Redis for the lease. */
  | {
      readonly kind: 'acquiring'
      readonly sessions: number
      readonly failures: number
      readonly holding: boolean
    }
  /** A standby: waiting for the timer before asking again (refused, ended, or failed). */
  | {
      readonly kind: 'waiting'
      readonly sessions: number
      readonly failures: number
      readonly holding: boolean
    }
  /** The lease is taken: reading where the last relay left the stream. */
  | { readonly kind: 'catching-up'; readonly sessions: number }
  /** Publishing the stream, renewing the lease; `lastPublished` is `''` before the first entry. */
  | { readonly kind: 'publishing'; readonly sessions: number; readonly lastPublished: string }
  /** The session is over: its publishes under way are being answered before what `end` says. */
  | { readonly kind: 'ending'; readonly sessions: number; readonly end: SessionEnd }
  /** Closing while Redis answers the lease (`acquire`) or the takeover read (`catch-up`). */
  | {
      readonly kind: 'stopping'
      readonly sessions: number
      readonly awaiting: 'acquire' | 'catch-up'
      readonly holding: boolean
    }
  /** Closing: giving the lease up. */
  | { readonly kind: 'releasing' }
  /** Closed: nothing more happens. */
  | { readonly kind: 'closed' }

/** What happened. Events of a session carry its number: one of an ended session is stale. */
export type SessionEvent =
  | { readonly type: 'start' }
  | { readonly type: 'stop' }
  /** Redis answered the lease: taken (or already ours), or another relay holds it. */
  | { readonly type: 'lease-answered'; readonly held: boolean }
  /** Asking for the lease failed (the command, or the connection). */
  | { readonly type: 'lease-failed'; readonly error: unknown }
  /** The standby's timer ran out. */
  | { readonly type: 'wait-over' }
  /** Where the last relay left the stream is read: publishing can start. */
  | { readonly type: 'caught-up'; readonly session: number }
  /** A publish was written: the entries it added, the id of the last one (`''` for none). */
  | {
      readonly type: 'written'
      readonly session: number
      readonly added: number
      readonly last: string
    }
  /** Time to renew the lease (every quarter of `leaseMs`). */
  | { readonly type: 'renew-due'; readonly session: number }
  /** The lease was renewed. */
  | { readonly type: 'lease-renewed'; readonly session: number }
  /** The lease is not this session's any more (a renewal or a publish found another owner). */
  | { readonly type: 'lease-lost'; readonly session: number }
  /** The renewal found the last entry published gone from the stream (flushed, evicted). */
  | { readonly type: 'history-lost'; readonly session: number }
  /** The stream completed. */
  | { readonly type: 'stream-completed'; readonly session: number }
  /** The session failed: the takeover read, a publish, a renewal, or the stream. */
  | { readonly type: 'session-failed'; readonly session: number; readonly error: unknown }
  /** Every publish of the session is answered. */
  | { readonly type: 'drained'; readonly session: number }
  /** The lease was given up (or Redis was away: it runs out by itself). */
  | { readonly type: 'released' }

/** What to do, in order. */
export type SessionEffect =
  /** Ask Redis for the lease, for `ttlMs`. */
  | { readonly type: 'acquire'; readonly ttlMs: number }
  /** Health of `publish <name>`: ok (Redis answered). */
  | { readonly type: 'report-ok' }
  /** A Redis error counted in the metrics. */
  | { readonly type: 'count-failure'; readonly error: unknown }
  /** Health of `publish <name>`: retrying. */
  | {
      readonly type: 'report-retrying'
      readonly attempt: number
      readonly delayMs: number
      readonly error: unknown
    }
  /** Start the standby's timer (`wait-over` when it runs out). */
  | { readonly type: 'wait'; readonly ms: number }
  | { readonly type: 'cancel-wait' }
  /** Read where the last relay left the stream, for session `session` (`caught-up`). */
  | { readonly type: 'catch-up'; readonly session: number }
  /** The lease taken, counted in the metrics. */
  | { readonly type: 'count-acquired' }
  /** Subscribe to the stream and publish its events in session `session`. */
  | { readonly type: 'subscribe'; readonly session: number }
  /** Start the renewal's timer (`renew-due` when it runs out). */
  | { readonly type: 'renew-after'; readonly session: number; readonly ms: number }
  /** Renew the lease for `ttlMs`, checking that `lastPublished` is still in the stream. */
  | {
      readonly type: 'renew'
      readonly session: number
      readonly ttlMs: number
      readonly lastPublished: string
    }
  /** Entries added to the stream, counted in the metrics. */
  | { readonly type: 'count-published'; readonly added: number }
  | { readonly type: 'cancel-renewal' }
  | { readonly type: 'unsubscribe' }
  /** Wait for the session's publishes under way to be answered (`drained`). */
  | { readonly type: 'drain'; readonly session: number }
  /** The session ended without the relay closing, counted in the metrics. */
  | { readonly type: 'count-lost' }
  /** Give the lease up if it is ours (`released`). */
  | { readonly type: 'release' }
  /** Closed: `stop()` resolves. */
  | { readonly type: 'closed' }

/** The reducer's answer: the next state and what to do, in order. */
export interface SessionStep {
  readonly life: SessionLife
  readonly effects: readonly SessionEffect[]
}

/** A stream's life before `start`. */
export const IDLE: SessionLife = { kind: 'idle' }

/** The lease's timings for `leaseMs`. */
export function leaseTimings(leaseMs: number) {
  return {
    /** How long the lease key lives: a standby trying every tenth of `leaseMs` is in time. */
    ttlMs: Math.floor(leaseMs * 0.75),
    /** A renewal every quarter: two may fail before the lease runs out. */
    renewMs: Math.max(10, Math.floor(leaseMs / 4)),
    /** A standby asks every tenth, and waits that long after a session ended. */
    standbyMs: Math.max(10, Math.floor(leaseMs / 10)),
    /** The wait after the `attempt`th Redis failure in a row. */
    backoffMs: (attempt: number) =>
      backoffDelay(attempt, Math.min(100, leaseMs), Math.min(2_000, leaseMs), 2),
  }
}

/**
 * `active` while this relay publishes the stream (until its last publish is answered);
 * `retrying` while Redis fails it (unreachable, a write refused when full): after a failure
 * until Redis answers again; `standby` otherwise (another relay holds the lease, or none
 * was asked for yet).
 */
export function statusOf(life: SessionLife): 'active' | 'standby' | 'retrying' {
  if (life.kind === 'publishing') return 'active'
  if (life.kind === 'ending') return life.end.type === 'failed' ? 'retrying' : 'active'
  if (life.kind === 'waiting' || life.kind === 'acquiring') {
    return life.failures > 0 ? 'retrying' : 'standby'
  }
  return 'standby'
}

/**
 * The reducer: the stream's next state and what to do for one event. An event that does
 * not apply to the state (a stale session's, a timer after stop) changes nothing.
 *
 * @example
 * ```ts
 * let step = stepSession(IDLE, { type: 'start' }, { name: 'pools', leaseMs: 500 })
 * step.effects // [{ type: 'acquire', ttlMs: 375 }]
 * step = stepSession(step.life, { type: 'lease-answered', held: true }, settings)
 * step.effects // [{ type: 'report-ok' }, { type: 'catch-up', session: 1 }]
 * ```
 */
export function stepSession(
  life: SessionLife,
  event: SessionEvent,
  settings: SessionSettings,
): SessionStep {
  const timings = leaseTimings(settings.leaseMs)
  // Counted whenever a publish was written, also one answered after its session ended.
  if (event.type === 'written') {
    const counted: SessionEffect[] =
      event.added > 0 ? [{ type: 'count-published', added: event.added }] : []
    if (life.kind !== 'publishing' || life.sessions !== event.session || event.last === '') {
      return { life, effects: counted }
    }
    return { life: { ...life, lastPublished: event.last }, effects: counted }
  }
  switch (life.kind) {
    case 'idle':
      if (event.type === 'start') {
        return {
          life: { kind: 'acquiring', sessions: 0, failures: 0, holding: false },
          effects: [{ type: 'acquire', ttlMs: timings.ttlMs }],
        }
      }
      if (event.type === 'stop') return closed()
      return same(life)
    case 'acquiring':
      switch (event.type) {
        case 'lease-answered': {
          // Redis answered: a later failure backs off from the start again.
          if (!event.held) {
            return {
              life: { ...life, kind: 'waiting', failures: 0, holding: false },
              effects: [{ type: 'report-ok' }, { type: 'wait', ms: timings.standbyMs }],
            }
          }
          const sessions = life.sessions + 1
          return {
            life: { kind: 'catching-up', sessions },
            effects: [{ type: 'report-ok' }, { type: 'catch-up', session: sessions }],
          }
        }
        case 'lease-failed':
          return failed(life.sessions, life.failures + 1, life.holding, event.error, [], timings)
        case 'stop':
          return {
            life: {
              kind: 'stopping',
              sessions: life.sessions,
              awaiting: 'acquire',
              holding: life.holding,
            },
            effects: [],
          }
        default:
          return same(life)
      }
    case 'waiting':
      if (event.type === 'wait-over') {
        return {
          life: { ...life, kind: 'acquiring' },
          effects: [{ type: 'acquire', ttlMs: timings.ttlMs }],
        }
      }
      if (event.type === 'stop') return release(life.holding, [{ type: 'cancel-wait' }])
      return same(life)
    case 'catching-up':
      if (event.type === 'stop') {
        return {
          life: { kind: 'stopping', sessions: life.sessions, awaiting: 'catch-up', holding: true },
          effects: [],
        }
      }
      if (!ofSession(event, life.sessions)) return same(life)
      if (event.type === 'caught-up') {
        return {
          life: { kind: 'publishing', sessions: life.sessions, lastPublished: '' },
          effects: [
            { type: 'count-acquired' },
            { type: 'renew-after', session: life.sessions, ms: timings.renewMs },
            { type: 'subscribe', session: life.sessions },
          ],
        }
      }
      // Nothing was published: the session is over before it began (no lease lost).
      if (event.type === 'session-failed') {
        return failed(life.sessions, 1, true, event.error, [], timings)
      }
      return same(life)
    case 'publishing': {
      if (event.type === 'stop') return end(life.sessions, { type: 'stopped' })
      if (!ofSession(event, life.sessions)) return same(life)
      switch (event.type) {
        case 'renew-due':
          return {
            life,
            effects: [
              {
                type: 'renew',
                session: life.sessions,
                ttlMs: timings.ttlMs,
                lastPublished: life.lastPublished,
              },
              { type: 'renew-after', session: life.sessions, ms: timings.renewMs },
            ],
          }
        case 'lease-lost':
        case 'stream-completed':
          return end(life.sessions, { type: 'lost' })
        case 'history-lost':
          return end(life.sessions, { type: 'failed', error: historyLost(settings.name) })
        case 'session-failed':
          return end(life.sessions, { type: 'failed', error: event.error })
        default:
          return same(life)
      }
    }
    case 'ending':
      // Closing while the session drains: no lease lost, no failure reported.
      if (event.type === 'stop') return same({ ...life, end: { type: 'stopped' } })
      if (event.type !== 'drained' || event.session !== life.sessions) return same(life)
      return afterSession(life.sessions, life.end, timings)
    case 'stopping': {
      const answered =
        life.awaiting === 'acquire'
          ? event.type === 'lease-answered' || event.type === 'lease-failed'
          : (event.type === 'caught-up' || event.type === 'session-failed') &&
            event.session === life.sessions
      if (!answered) return same(life)
      if (event.type === 'lease-answered') {
        return release(event.held, [{ type: 'report-ok' }])
      }
      return release(life.holding, [])
    }
    case 'releasing':
      return event.type === 'released' ? closed() : same(life)
    case 'closed':
      return same(life)
  }
}

/** Whether `event` belongs to session `sessions` (one without a session never does). */
function ofSession(event: SessionEvent, sessions: number): boolean {
  return 'session' in event && event.session === sessions
}

function same(life: SessionLife): SessionStep {
  return { life, effects: [] }
}

function closed(): SessionStep {
  return { life: { kind: 'closed' }, effects: [{ type: 'closed' }] }
}

/** Gives the lease up when this relay took it last time it asked, then closes. */
function release(holding: boolean, before: readonly SessionEffect[]): SessionStep {
  if (!holding) return { life: { kind: 'closed' }, effects: [...before, { type: 'closed' }] }
  return { life: { kind: 'releasing' }, effects: [...before, { type: 'release' }] }
}

/** Ends the session: no more renewals or events; what is under way is answered first. */
function end(sessions: number, how: SessionEnd): SessionStep {
  return {
    life: { kind: 'ending', sessions, end: how },
    effects: [
      { type: 'cancel-renewal' },
      { type: 'unsubscribe' },
      { type: 'drain', session: sessions },
    ],
  }
}

/** Once an ended session's publishes are answered: what its end says. */
function afterSession(
  sessions: number,
  how: SessionEnd,
  timings: ReturnType<typeof leaseTimings>,
): SessionStep {
  switch (how.type) {
    case 'stopped':
      return release(true, [])
    case 'lost':
      return {
        life: { kind: 'waiting', sessions, failures: 0, holding: true },
        effects: [{ type: 'count-lost' }, { type: 'wait', ms: timings.standbyMs }],
      }
    case 'failed':
      return failed(sessions, 1, true, how.error, [{ type: 'count-lost' }], timings)
  }
}

/** The `failures`th Redis failure in a row: counted, reported, and a wait that grows. */
function failed(
  sessions: number,
  failures: number,
  holding: boolean,
  error: unknown,
  before: readonly SessionEffect[],
  timings: ReturnType<typeof leaseTimings>,
): SessionStep {
  const delayMs = timings.backoffMs(failures)
  return {
    life: { kind: 'waiting', sessions, failures, holding },
    effects: [
      ...before,
      { type: 'count-failure', error },
      { type: 'report-retrying', attempt: failures, delayMs, error },
      { type: 'wait', ms: delayMs },
    ],
  }
}

/**
 * The end of a session whose stream lost its history under it (flushed, evicted): the next
 * session starts from what Redis holds and republishes the rest from the venue.
 */
export function historyLost(name: string): VenueRelayError {
  return new VenueRelayError(
    `relay: the stream ${name} lost its history in Redis (flushed or evicted; keep maxmemory-policy noeviction); publishing it again from the venue`,
  )
}
