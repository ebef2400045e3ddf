/**
 * A live session on the simulator, recorded to a journal, with the events each stream
 * emitted; and the same streams subscribed on a venue replaying that journal.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Observable, Subscription } from 'rxjs'
import { createVenue, type Venue, type VenueOptions } from '../../src/index.js'
import type { ReplaySpeed } from '../../src/replay/replay-clock.js'
import { startSimulator } from '../../src/simulator/index.js'

/** The streams of a session, by name, as a bot subscribes them. */
export const SESSION_STREAMS: Readonly<Record<string, (venue: Venue) => Observable<unknown>>> = {
  depth: (venue) => venue.watchDepth(0),
  trades: (venue) => venue.watchTrades(0),
  myTrades: (venue) => venue.watchMyTrades(),
  balances: (venue) => venue.watchBalances(),
  klines: (venue) => venue.watchKlines(0, '1m'),
}

/** The options of a session's venue, live and replayed alike. */
export const SESSION_OPTIONS = {
  pollIntervalMs: 200,
  settleMs: 150,
  lingerMs: 1,
  maxRequestsPerSecond: 60,
} satisfies Partial<VenueOptions>

/** Each stream's events, by name. */
export type SessionEvents = Record<string, unknown[]>

/** Subscribes every stream of the session, collecting its events; `done` when all ended. */
function collect(venue: Venue): {
  events: SessionEvents
  done: Promise<void>
  stop: () => void
} {
  const events: SessionEvents = {}
  const subscriptions: Subscription[] = []
  const ends: Promise<void>[] = []
  for (const [name, open] of Object.entries(SESSION_STREAMS)) {
    const list: unknown[] = []
    events[name] = list
    ends.push(
      new Promise<void>((resolve, reject) => {
        subscriptions.push(
          open(venue).subscribe({
            next: (event) => list.push(event),
            error: reject,
            complete: resolve,
          }),
        )
      }),
    )
  }
  return {
    events,
    done: Promise.all(ends).then(() => undefined),
    stop: () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    },
  }
}

/**
 * Records a live session of `ms` on a realtime simulator with bursts (the demo account
 * trades every few seconds): the journal's path and what each stream emitted.
 */
export async function recordSession(
  ms: number,
): Promise<{ file: string; live: SessionEvents; baseUrl: string }> {
  const sim = await startSimulator({
    seed: 7,
    tickMs: 10,
    bursts: { ownTradeGapMs: [150, 400], quietMs: [200, 500] },
  })
  const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-replay-')), 'session.journal')
  try {
    const venue = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      record: { file },
      ...SESSION_OPTIONS,
    })
    const session = collect(venue)
    // The session's length in real time: this is the live side, recorded.
    await new Promise((resolve) => setTimeout(resolve, ms))
    session.stop()
    await venue.close()
    return { file, live: session.events, baseUrl: sim.url }
  } finally {
    await sim.close()
  }
}

/** The session's streams on a venue replaying `file` at `speed`, until every one ended. */
export async function replaySession(file: string, speed: ReplaySpeed): Promise<SessionEvents> {
  const venue = createVenue({ replay: { file, speed }, ...SESSION_OPTIONS })
  const session = collect(venue)
  try {
    await session.done
    return session.events
  } finally {
    await venue.close()
  }
}
