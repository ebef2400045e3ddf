/**
 * The relay on a real Redis Cluster (3 masters, started by the test): a relay of every
 * stream kind the catalogue relays, two bots reading them, each equal to what a polling
 * venue or the simulator's truth gives, before and after the market moves; the streams
 * spread over the masters (an account's streams on one, a pool's on one, the other
 * public streams on one); the bots' blocking reads, one per hash tag, wait on every
 * master that holds their streams; no command meets CROSSSLOT or MOVED; the clean-up of
 * docs/relay.md leaves none of the fleet's keys on any master. The request
 * budget kept on the cluster holds two venues to one rate. Last (it hangs a master of the
 * file's cluster): a master SIGSTOPped under a relay and a bot: the streams it holds (the
 * account's) show `retrying` in the relay's health and status and in the bot's
 * `venue.health`, the streams on the other masters go on; woken (SIGCONT), every own trade
 * and fill once, in order.
 */
import { firstValueFrom, type Observable, take, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  type BalancesUpdate,
  createVenue,
  type FeedItem,
  type Fill,
  type HealthReport,
  type OpenOrderEvent,
  type OrderBook,
  type PublicTradeEvent,
  type Venue,
} from '../src/index.js'
import { budgetKey } from '../src/redis/redis.js'
import { RELAYED } from '../src/streams/catalogue.js'
import { runCleanUpRecipe } from './helpers/clean-up-recipe.js'
import { onCleanup } from './helpers/cleanups.js'
import { clusterFixture, stateOf } from './helpers/cluster-fixture.js'
import { recordRequests } from './helpers/simulator-venue.js'
import { waitFor, waitForAsync } from './helpers/wait-for.js'

const { cluster, nextPrefix, simulator, ownerOf, relayOn, bot, direct } = clusterFixture('cl')

/** The first `n` values of `stream`. */
const first = <T>(stream: Observable<T>, n: number) =>
  firstValueFrom(stream.pipe(take(n), toArray()))

/** Subscribes for the rest of the test; the values land in the returned array. */
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

/** One stream of each kind the catalogue relays: pool 0, candles of 1m. */
const EVERY_KIND = RELAYED.map(({ relay }) =>
  [relay.kind, ...relay.params.map((param) => (param === 'poolId' ? '0' : '1m'))].join(':'),
)

/** What one bot reads, from its subscription on. */
function reads(venue: Venue) {
  return {
    myTrades: collect(venue.watchMyTrades()),
    fills: collect(venue.watchFills()),
    transfers: collect(venue.watchTransfers()),
    books: collect(venue.watchOrderBook(0)),
    trades: collect(venue.watchTrades(0)),
    balances: collect(venue.watchBalances()),
    openOrders: collect(venue.watchOpenOrders()),
    klines: collect(venue.watchKlines(0, '1m')),
    pools: collect(venue.watchPools()),
    pool: collect(venue.watchPool(0)),
    tokens: collect(venue.watchTokens()),
    systemInfo: collect(venue.watchSystemInfo()),
    account: collect(venue.watchAccount()),
  }
}

const seqs = (items: readonly FeedItem<{ global_seq: string }>[]) =>
  items.map((item) => item.global_seq)
const fillIds = (fills: readonly Fill[]) => fills.map((fill) => `${fill.globalSeq}/${fill.role}`)
const bookOf = (book: Pick<OrderBook, 'bids' | 'asks'> | undefined) =>
  JSON.stringify([book?.bids, book?.asks])
/** The ids of the orders open after `events`. */
function opened(events: readonly OpenOrderEvent[]): string[] {
  const open = new Set<string>()
  for (const event of events) {
    if (event.type === 'opened') open.add(event.order.id)
    else if (event.type === 'closed') open.delete(event.order.id)
  }
  return [...open].sort()
}

describe('relay on a Redis Cluster', () => {
  it('relays every stream kind, spread over the masters; bots read what the venue serves, each item once', async () => {
    const sim = await simulator(100)
    const prefix = nextPrefix()
    const account = sim.market.account(sim.apiKey)
    const tradeTruth = () => (account?.trades() ?? []).map((trade) => String(trade.global_seq))
    const transferCount = () => account?.transfers().length ?? 0
    expect(tradeTruth().length).toBeGreaterThan(20)

    const relay = await relayOn(sim, prefix, EVERY_KIND)
    await waitFor(
      () => Object.values(relay.status()).every((status) => stateOf(status) === 'active'),
      'every stream active',
    )
    // Each stream's lease is on the master of its tag: three masters hold streams. (A
    // lease renewed late on a busy machine is gone for a moment: counted once all are there.)
    const byMaster = new Map<number, number>()
    await waitForAsync(async () => {
      byMaster.clear()
      for (const port of cluster().ports) {
        const leases = await cluster().node(port).keys(`${prefix}:*:lease`)
        if (leases.length > 0) byMaster.set(port, leases.length)
      }
      return [...byMaster.values()].reduce((a, b) => a + b, 0) === EVERY_KIND.length
    }, 'every lease in Redis')
    expect(byMaster.size).toBe(3)
    expect(byMaster.get(await ownerOf(sim, prefix, { kind: 'my-trades' }))).toBe(6)

    const venue = direct(sim)
    const bots = [bot(sim, prefix), bot(sim, prefix)].map(reads)
    const polledFills = async (n: number) => first(venue.watchFills(), n)

    const check = async (stage: string) => {
      const trades = tradeTruth()
      const fills = await polledFills(
        (account?.trades() ?? []).reduce(
          (n, trade) =>
            n +
            (trade.maker === account?.info().chain_account ? 1 : 0) +
            (trade.taker === account?.info().chain_account ? 1 : 0),
          0,
        ),
      )
      const transfers = await first(venue.watchTransfers(), transferCount())
      const [served, balances, pools, pool, tokens, info, me] = await Promise.all([
        venue.rest.depth({ poolId: 0 }),
        venue.rest.balances(),
        venue.rest.pools(),
        first(venue.watchPool(0), 1),
        venue.rest.tokens(),
        venue.rest.systemInfo(),
        venue.rest.accountInfo(),
      ])
      const openIds = (account?.openOrders() ?? []).map((order) => order.id).sort()
      for (const seen of bots) {
        const behind = () =>
          Object.entries({
            myTrades: seen.myTrades.length >= trades.length,
            fills: seen.fills.length >= fills.length,
            transfers: seen.transfers.length >= transfers.length,
            book: bookOf(seen.books.at(-1)) === bookOf(served),
            balances:
              JSON.stringify((seen.balances.at(-1) as BalancesUpdate | undefined)?.balances) ===
              JSON.stringify(balances),
            openOrders: JSON.stringify(opened(seen.openOrders)) === JSON.stringify(openIds),
            klines: seen.klines.length > 0,
            pools: JSON.stringify(seen.pools.at(-1)) === JSON.stringify(pools),
            pool: JSON.stringify(seen.pool.at(-1)) === JSON.stringify(pool[0]),
            tokens: seen.tokens.length > 0,
            systemInfo: seen.systemInfo.length > 0,
            account: JSON.stringify(seen.account.at(-1)) === JSON.stringify(me),
          }).flatMap(([name, done]) => (done ? [] : [name]))
        await waitFor(() => behind().length === 0, `every stream of a bot, ${stage}`).catch(
          (error: Error) => {
            throw new Error(`${error.message}; behind: ${behind().join(', ')}`)
          },
        )
        // Feeds: each item once, in order, as the venue has them.
        expect(seqs(seen.myTrades)).toEqual(trades)
        expect(fillIds(seen.fills)).toEqual(fillIds(fills))
        expect(seen.fills).toEqual(fills)
        expect(seen.transfers).toEqual(transfers)
        expect(seen.pools.at(-1)).toEqual(pools)
        expect(seen.pool.at(-1)).toEqual(pool[0])
        expect(seen.tokens.at(-1)).toEqual(tokens)
        expect(seen.systemInfo.at(-1)).toEqual(info)
        expect(seen.account.at(-1)).toEqual(me)
      }
    }
    await check('at the start')
    const [relayedKline] = bots[0]?.klines ?? []
    const [polledKline] = await first(venue.watchKlines(0, '1m'), 1)
    expect(relayedKline).toEqual(polledKline)

    // The market moves: new trades, fills, books, public trades.
    const publicTruth = () =>
      sim.truth.publicTrades(0).map((trade) => ({ ...trade, traded_at: trade.traded_at * 1000 }))
    const publicBefore = publicTruth().length
    const tradesBefore = bots.map((seen) => seen.trades.length)
    sim.advance(30)
    const added = publicTruth().slice(publicBefore)
    expect(added.length).toBeGreaterThan(0)
    await check('after the market moved')
    for (const [at, seen] of bots.entries()) {
      await waitFor(
        () => seen.trades.length >= (tradesBefore[at] ?? 0) + added.length,
        'the new public trades',
      )
      const tradesOf = (events: readonly PublicTradeEvent[]) =>
        events.map((event) => (event.type === 'trade' ? event.trade : event))
      // Every public trade it got is the venue's, each once, in order; the new ones all.
      expect(tradesOf(seen.trades)).toEqual(publicTruth().slice(-seen.trades.length))
      expect(tradesOf(seen.trades.slice(-added.length))).toEqual(added)
    }

    // Each bot's blocking reads, one per tag, wait on the three masters.
    await waitForAsync(async () => {
      const waiting = await Promise.all(
        cluster().ports.map(async (port) => {
          const clients = String(await cluster().node(port).call('CLIENT', 'LIST'))
          return clients
            .split('\n')
            .filter((line) => / name=venue-rx-reader-wait /.test(line) && / cmd=xread /.test(line))
            .length
        }),
      )
      return waiting.every((n) => n >= 2)
    }, 'blocking reads of both bots on every master')
    for (const [port, stats] of await cluster().errorStats()) {
      expect({ port, crossslot: stats['CROSSSLOT'], moved: stats['MOVED'] }).toEqual({
        port,
        crossslot: undefined,
        moved: undefined,
      })
    }
    // docs/relay.md's clean-up, on each master: nothing of the fleet is left.
    await relay.close()
    await runCleanUpRecipe(
      cluster().ports.map((port) => `127.0.0.1:${port}`),
      prefix,
    )
    for (const port of cluster().ports) {
      expect(await cluster().node(port).keys(`${prefix}:*`)).toEqual([])
    }
    console.log(
      `relay-cluster: ${EVERY_KIND.length} streams, leases per master ${JSON.stringify([...byMaster])}; ` +
        `${tradeTruth().length} own trades and ${added.length} new public trades read by ${bots.length} bots`,
    )
  })

  it('holds two venues to the shared budget on the cluster: no more requests than its rate lets through', async () => {
    const sim = await simulator(0)
    // A prefix whose budget key the first node listed does not serve: the client follows the slots.
    let prefix = nextPrefix()
    const keyOf = (p: string) => budgetKey(p, sim.url, sim.apiKey)
    while ((await cluster().ownerOf(keyOf(prefix))) === cluster().ports[0]) prefix = nextPrefix()
    const owner = cluster().node(await cluster().ownerOf(keyOf(prefix)))
    const redisTime = async () => {
      const [seconds, micros] = (await owner.time()) as unknown as [
        string | number,
        string | number,
      ]
      return Number(seconds) * 1000 + Number(micros) / 1000
    }
    const rate = 20
    const venues = [0, 1].map(() => {
      const venue = createVenue({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        maxRequestsPerSecond: rate,
        sharedBudget: { redis: cluster().redis, prefix },
      })
      onCleanup(() => venue.close())
      return venue
    })
    const hits = recordRequests(sim)
    const start = await redisTime()
    const requests = 40
    // One request at a time per venue (identical requests in flight would share one).
    await Promise.all(
      venues.map(async (venue) => {
        for (let i = 0; i < requests / venues.length; i += 1) await venue.rest.systemInfo()
      }),
    )
    const end = await redisTime()
    expect(hits).toHaveLength(requests)
    // Redis's clock times the bucket: a full bucket (one second's worth) and the rate after.
    const allowed = rate + Math.ceil((rate * (end - start)) / 1000)
    expect(hits.length).toBeLessThanOrEqual(allowed)
    expect(await owner.exists(keyOf(prefix))).toBe(1)
    for (const [, stats] of await cluster().errorStats()) expect(stats['MOVED']).toBeUndefined()
    console.log(
      `relay-cluster budget: ${hits.length} requests in ${Math.round(end - start)} ms of Redis time ` +
        `(${((hits.length * 1000) / (end - start)).toFixed(1)}/s; rate ${rate}/s, burst ${rate})`,
    )
  })
})

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
      `relay-cluster, a master hung: ${heldTrades} own trades before the stop, ${trades.length} after; ${fills.length} fills`,
    )
  })
})
