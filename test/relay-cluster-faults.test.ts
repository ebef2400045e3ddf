/**
 * A master of a real Redis Cluster hung (SIGSTOP) under a relay and a bot: the streams it
 * holds (the account's) show `retrying` in the relay's health and status and in the bot's
 * `venue.health`; the streams on the other
 * masters (a book, the pool list) go on. Woken (SIGCONT), the account's feeds go on: every
 * own trade and fill once, in order, against the simulator's truth and a polling venue.
 */
import { firstValueFrom, type Observable, take, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { Fill, HealthReport, OrderBook } from '../src/index.js'
import { onCleanup } from './helpers/cleanups.js'
import { clusterFixture, stateOf } from './helpers/cluster-fixture.js'
import { waitFor } from './helpers/wait-for.js'

const { cluster, nextPrefix, simulator, ownerOf, relayOn, bot, direct } = clusterFixture('cf')

function collect<T>(stream: Observable<T>): T[] {
  const seen: T[] = []
  const subscription = stream.subscribe((value) => seen.push(value))
  onCleanup(() => subscription.unsubscribe())
  return seen
}

/** The latest report of `health`, kept up to date for the rest of the test. */
function latest(health: Observable<HealthReport>): () => HealthReport {
  let report: HealthReport = {}
  const subscription = health.subscribe((next) => {
    report = next
  })
  onCleanup(() => subscription.unsubscribe())
  return () => report
}

const bookOf = (book: Pick<OrderBook, 'bids' | 'asks'> | undefined) =>
  JSON.stringify([book?.bids, book?.asks])

describe('relay on a Redis Cluster: a master hung', () => {
  it('shows its streams retrying while the others publish on; once woken, nothing is lost or repeated', async () => {
    const sim = await simulator(60)
    const prefix = nextPrefix()
    const account = sim.market.account(sim.apiKey)
    const me = account?.info().chain_account
    const tradeTruth = () => (account?.trades() ?? []).map((trade) => String(trade.global_seq))
    const fillCount = () =>
      (account?.trades() ?? []).reduce(
        (n, trade) => n + (trade.maker === me ? 1 : 0) + (trade.taker === me ? 1 : 0),
        0,
      )
    const relay = await relayOn(sim, prefix, ['my-trades', 'fills', 'depth:0', 'pools'])
    const hung = await ownerOf(sim, prefix, { kind: 'my-trades' })
    expect(await ownerOf(sim, prefix, { kind: 'depth', poolId: 0 })).not.toBe(hung)
    const venue = bot(sim, prefix)
    const trades = collect(venue.watchMyTrades())
    const fills = collect(venue.watchFills())
    const books = collect(venue.watchOrderBook(0))
    const relayHealth = latest(relay.health)
    const botHealth = latest(venue.health)
    const rest = direct(sim).rest
    await waitFor(
      () => trades.length === tradeTruth().length && fills.length === fillCount(),
      'the feeds read up to now',
    )

    cluster().signal(hung, 'SIGSTOP')
    onCleanup(() => cluster().signal(hung, 'SIGCONT'))
    sim.advance(20)
    const served = await rest.depth({ poolId: 0 })
    await waitFor(
      () =>
        relayHealth()['publish my-trades']?.state === 'retrying' &&
        relayHealth()['publish fills']?.state === 'retrying' &&
        stateOf(relay.status()['my-trades']) === 'retrying' &&
        botHealth()['relay my-trades']?.state === 'retrying',
      "the hung master's streams retrying",
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}: ${JSON.stringify({ relay: relayHealth(), status: relay.status(), bot: botHealth() })}`,
      )
    })
    expect(botHealth()['relay my-trades']).toMatchObject({ lastErrorCode: 'VENUE_RELAY' })
    // The book's master answers: its stream publishes on, and the bot reads it.
    await waitFor(() => bookOf(books.at(-1)) === bookOf(served), 'the book after the market moved')
    expect(relayHealth()['publish depth:0']?.state).toBe('ok')
    expect(stateOf(relay.status()['depth:0'])).toBe('active')
    expect(botHealth()['relay depth:0']?.state).toBe('ok')
    const heldTrades = trades.length

    cluster().signal(hung, 'SIGCONT')
    sim.advance(20)
    expect(tradeTruth().length).toBeGreaterThan(heldTrades)
    await waitFor(
      () =>
        trades.length >= tradeTruth().length &&
        fills.length >= fillCount() &&
        botHealth()['relay my-trades']?.state === 'ok' &&
        botHealth()['relay my-trades wake'] === undefined &&
        stateOf(relay.status()['my-trades']) === 'active',
      'the feeds after the master woke',
    )
    expect(trades.map((trade) => trade.global_seq)).toEqual(tradeTruth())
    const polled: Fill[] = await firstValueFrom(
      direct(sim).watchFills().pipe(take(fillCount()), toArray()),
    )
    expect(fills).toEqual(polled)
    for (const [port, stats] of await cluster().errorStats()) {
      expect({ port, crossslot: stats['CROSSSLOT'], moved: stats['MOVED'] }).toEqual({
        port,
        crossslot: undefined,
        moved: undefined,
      })
    }
    console.log(
      `relay-cluster-faults: ${heldTrades} own trades before the stop, ${trades.length} after; ${fills.length} fills`,
    )
  })
})
