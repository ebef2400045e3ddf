/**
 * The relay's other streams against a real redis-server and the simulator on a manual
 * clock: for each kind test/relay.test.ts does not cover, a consumer reading through the
 * relay gets what a direct (polling) venue gets, checked against the simulator's ground
 * truth where there is one. Fills resume from a checkpoint (half way, and between the two
 * fills of a self-trade); balances and open orders give a late consumer the relay's state
 * first; pools, klines and books equal what the venue serves; public trades arrive each
 * once; a consumer that subscribed before any relay published gets its first value once
 * one starts.
 */
import { Redis } from 'ioredis'
import { filter, firstValueFrom, type Observable, take, toArray } from 'rxjs'
import { Agent, type Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import {
  type BalancesUpdate,
  type BookEvent,
  compareDecimal,
  createVenue,
  type Fill,
  memoryCheckpoint,
  type OpenOrderEvent,
  type OrderBook,
  type PublicTrade,
  type PublicTradeEvent,
  subtractDecimal,
} from '../src/index.js'
import { onCleanup } from './helpers/cleanups.js'
import { newestCursor } from './helpers/positions.js'
import { healthOf, relayFixture } from './helpers/relay-fixture.js'
import { waitFor } from './helpers/wait-for.js'

const { redis: server, nextPrefix, simulator, relayOn, consumer, direct } = relayFixture('rs')

/** Pool 0 is CHN/USDT. */
const CHN = 'chain.token-CHN'

/** The first `n` values of `stream`. */
const first = <T>(stream: Observable<T>, n: number) =>
  firstValueFrom(stream.pipe(take(n), toArray()))

/** Subscribes for the rest of the test; the values land in the returned array. */
function collect<T>(stream: Observable<T>): T[] {
  const seen: T[] = []
  // An error goes unhandled: vitest fails the run with it.
  const subscription = stream.subscribe((value) => seen.push(value))
  onCleanup(() => subscription.unsubscribe())
  return seen
}

/** What the comparison of two fills looks at. */
const fillShape = (fill: Fill) => ({
  globalSeq: fill.globalSeq,
  role: fill.role,
  side: fill.side,
  price: fill.price,
  quantity: fill.quantity,
  fee: fill.fee,
  feeCoin: fill.feeCoin,
})

describe('relay streams: a consumer gets what a polling venue gets', () => {
  it('fills: every fill once, in order, a self-trade as two fills; resumes from a checkpoint', async () => {
    const sim = await simulator(100)
    const prefix = nextPrefix()
    const account = sim.market.account(sim.apiKey)
    const me = account?.info().chain_account
    /** The simulator's fills of the account: maker before taker in a self-trade. */
    const truth = () =>
      (account?.trades() ?? []).flatMap((trade) => [
        ...(trade.maker === me ? [{ globalSeq: String(trade.global_seq), role: 'maker' }] : []),
        ...(trade.taker === me ? [{ globalSeq: String(trade.global_seq), role: 'taker' }] : []),
      ])
    const before = truth()
    expect(before.length).toBeGreaterThan(20)
    // Seed 3 makes the demo account trade with itself within its first 100 ticks.
    const selfAt = before.findIndex((fill, i) => before[i + 1]?.globalSeq === fill.globalSeq)
    const half = Math.floor(before.length / 2)
    expect(selfAt).toBeGreaterThan(half)
    expect(before.slice(selfAt, selfAt + 2).map((fill) => fill.role)).toEqual(['maker', 'taker'])

    await relayOn(sim, prefix, ['fills'])
    const venue = consumer(sim, prefix)
    const checkpoint = memoryCheckpoint<string>()
    // Half way, then again between the two fills of the self-trade.
    const firstPart = await first(venue.watchFills({ checkpoint }), half)
    expect(newestCursor(await checkpoint.load())).toBe(firstPart.at(-1)?.globalSeq)
    const secondPart = await first(venue.watchFills({ checkpoint }), selfAt + 1 - half)
    expect(secondPart.at(-1)?.role).toBe('maker')
    expect(newestCursor(await checkpoint.load())).toBe(`${before[selfAt]?.globalSeq}/1`)
    // The market moves on; the consumer comes back with its checkpoint.
    sim.advance(100)
    const all = truth()
    expect(all.length).toBeGreaterThan(before.length)
    const rest = await first(venue.watchFills({ checkpoint }), all.length - selfAt - 1)
    expect(rest[0]?.role).toBe('taker')
    expect(rest[0]?.globalSeq).toBe(before[selfAt]?.globalSeq)
    const relayed = [...firstPart, ...secondPart, ...rest]

    expect(relayed.map((fill) => ({ globalSeq: fill.globalSeq, role: fill.role }))).toEqual(all)
    const polled = await first(direct(sim).watchFills(), all.length)
    expect(relayed.map(fillShape)).toEqual(polled.map(fillShape))
    // The fee coin goes through the relay's JSON: the self-trade's seller fill pays in one
    // coin, its buyer fill in the other.
    const selfTrade = relayed.filter((fill) => fill.globalSeq === before[selfAt]?.globalSeq)
    expect(new Set(selfTrade.map((fill) => fill.feeCoin)).size).toBe(2)
    expect(relayed).toEqual(polled)
    expect(newestCursor(await checkpoint.load())).toBe(all.at(-1)?.globalSeq)
  })

  it('balances: a late consumer starts with every coin added; a lock shows as changed', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['balances'])
    const early = collect(consumer(sim, prefix).watchBalances())
    await waitFor(() => early.length >= 1, "the relay's first balances")

    const venue = consumer(sim, prefix)
    const late = collect(venue.watchBalances())
    await waitFor(() => late.length >= 1, "a late consumer's first balances")
    const served = await direct(sim).rest.balances()
    const start = late[0] as BalancesUpdate
    expect(start.balances).toEqual(served)
    expect(start.changes).toEqual(
      served.map((current) => ({ type: 'added', coin: current.coin, current })),
    )
    expect(start.byCoin).toBeInstanceOf(Map)
    expect([...start.byCoin.keys()]).toEqual(served.map((balance) => balance.coin))
    for (const balance of served) expect(start.byCoin.get(balance.coin)).toEqual(balance)

    // A resting limit sell far above the market locks 15 CHN.
    await sim.placeOrder({ poolId: 0, side: 'sell', type: 'limit', price: '2.0000', amount: '15' })
    await waitFor(() => late.length >= 2, 'the balances after the lock')
    const next = late[1] as BalancesUpdate
    const change = next.changes.find((each) => each.coin === CHN)
    expect(change?.type).toBe('changed')
    const now = await direct(sim).rest.balances()
    expect(next.balances).toEqual(now)
    expect(next.byCoin.get(CHN)).toEqual(now.find((balance) => balance.coin === CHN))
    if (change?.type === 'changed') {
      expect(change.previous).toEqual(start.byCoin.get(CHN))
      const locked = subtractDecimal(change.current.locked, change.previous.locked)
      expect(compareDecimal(locked, '15'), `${locked} more CHN locked`).toBe(0)
    }
    expect(late).toHaveLength(2)
  })

  it('open-orders: opened for each open order (late consumers from the state), closed as canceled', async () => {
    const sim = await simulator(50)
    const prefix = nextPrefix()
    const account = sim.market.account(sim.apiKey)
    const openIds = () => (account?.openOrders() ?? []).map((order) => order.id).sort()
    expect(openIds().length).toBeGreaterThan(0)
    await relayOn(sim, prefix, ['open-orders'])
    const opened = (events: readonly OpenOrderEvent[]) =>
      events
        .filter((event) => event.type === 'opened')
        .map((event) => event.order.id)
        .sort()

    const early = collect(consumer(sim, prefix).watchOpenOrders())
    await waitFor(() => opened(early).length >= openIds().length, 'opened for every open order')
    expect(opened(early)).toEqual(openIds())

    const placed = await sim.placeOrder({
      poolId: 0,
      side: 'sell',
      type: 'limit',
      price: '2.0000',
      amount: '15',
      clientId: 'relay-open',
    })
    await waitFor(() => opened(early).includes(placed.id), 'opened for the placed order')
    expect(opened(early)).toEqual(openIds())

    // A late consumer replays the relay's state: every order open now.
    const late = collect(consumer(sim, prefix).watchOpenOrders())
    await waitFor(() => opened(late).length >= openIds().length, "the late consumer's orders")
    expect(opened(late)).toEqual(openIds())
    expect(late.every((event) => event.type === 'opened')).toBe(true)
    // Equal to what a direct venue lists.
    const polled = await first(direct(sim).watchOpenOrders(), openIds().length)
    expect([...late].sort((a, b) => a.order.id.localeCompare(b.order.id))).toEqual(
      [...polled].sort((a, b) => a.order.id.localeCompare(b.order.id)),
    )

    await sim.cancelOrder(placed.id)
    const closedIn = (events: readonly OpenOrderEvent[]) =>
      events.filter((event) => event.type === 'closed' && event.order.id === placed.id)
    await waitFor(
      () => closedIn(early).length === 1 && closedIn(late).length === 1,
      'closed for the canceled order',
    )
    for (const events of [early, late]) {
      const closed = closedIn(events)[0]
      expect(closed?.type === 'closed' && closed.status).toBe('canceled')
      expect(closed?.type === 'closed' && closed.final?.id).toBe(placed.id)
    }
    expect(openIds()).not.toContain(placed.id)
  })

  it('open orders, balances and pools across a relay change: what changed meanwhile, nothing repeated', async () => {
    const sim = await simulator(50)
    const prefix = nextPrefix()
    const account = sim.market.account(sim.apiKey)
    const openIds = () => (account?.openOrders() ?? []).map((order) => order.id).sort()
    const firstRelay = await relayOn(sim, prefix, ['open-orders', 'balances', 'pools'])
    const bot = consumer(sim, prefix)
    const orders = collect(bot.watchOpenOrders())
    const balances = collect(bot.watchBalances())
    const pools = collect(bot.watchPools())
    const opened = () => orders.filter((e) => e.type === 'opened').map((e) => e.order.id)
    const order = (clientId: string, amount = '5') =>
      sim.placeOrder({ poolId: 0, side: 'sell', type: 'limit', price: '2.0000', amount, clientId })
    const kept = await order('kept')
    const gone = await order('gone')
    // Every open order (the account's own and the two placed), the pools, the locks.
    await waitFor(
      () =>
        openIds().every((id) => opened().includes(id)) && pools.length > 0 && balances.length > 0,
      'every open order opened, the pools and the balances',
    )
    expect(openIds()).toEqual(expect.arrayContaining([kept.id, gone.id]))
    const before = { orders: orders.length, balances: balances.length }
    // No relay: one order goes, another comes.
    await firstRelay.close()
    await sim.cancelOrder(gone.id)
    // 7 locked where 5 were freed: the CHN lock changes by 2.
    const added = await order('added', '7')
    await relayOn(sim, prefix, ['open-orders', 'balances', 'pools'])
    await waitFor(
      () =>
        orders.some((e) => e.type === 'closed' && e.order.id === gone.id) &&
        opened().includes(added.id),
      'the order gone meanwhile closed, the new one opened',
    )
    const after = orders.slice(before.orders)
    expect(after.map((e) => [e.type, e.order.id]).sort()).toEqual(
      [
        ['closed', gone.id],
        ['opened', added.id],
      ].sort(),
    )
    expect(after.find((e) => e.type === 'closed')).toMatchObject({ status: 'canceled' })
    // Every order opened once; the open set is the venue's.
    expect(new Set(opened()).size).toBe(opened().length)
    const open = new Set(opened())
    for (const e of orders) if (e.type === 'closed') open.delete(e.order.id)
    expect([...open].sort()).toEqual(openIds())
    // Balances: the lock's change, never every coin added again.
    await waitFor(() => balances.length > before.balances, 'a balances update after the change')
    for (const update of balances.slice(before.balances)) {
      expect(update.changes.every((change) => change.type === 'changed')).toBe(true)
    }
    expect(
      balances.slice(before.balances).flatMap((update) => update.changes.map((c) => c.coin)),
    ).toEqual([CHN])
    expect(balances.at(-1)?.balances).toEqual(await direct(sim).rest.balances())
    // The pool list did not change: not published again.
    expect(pools).toHaveLength(1)
  })

  it('pools: the first value equals rest.pools()', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['pools'])
    const [pools] = await first(consumer(sim, prefix).watchPools(), 1)
    expect(pools).toEqual(await direct(sim).rest.pools())
  })

  it("tokens, system-info and account: the first value equals the venue's, with no request of the consumer to the venue", async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['tokens', 'system-info', 'account'])
    const requests: string[] = []
    const agent = new Agent()
    const bot = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      dispatcher: agent.compose(
        (dispatch: Dispatcher['dispatch']) =>
          (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
            requests.push(String(options.path))
            return dispatch(options, handler)
          },
      ),
      relay: { redis: server().url, prefix },
    })
    onCleanup(async () => {
      await bot.close()
      await agent.close()
    })
    const [tokens] = await first(bot.watchTokens(), 1)
    const [info] = await first(bot.watchSystemInfo(), 1)
    const [account] = await first(bot.watchAccount(), 1)
    const venue = direct(sim)
    expect(tokens).toEqual(await venue.rest.tokens())
    expect(info).toEqual(await venue.rest.systemInfo())
    expect(account).toEqual(await venue.rest.accountInfo())
    expect(requests).toEqual([])
  })

  it('klines:0:1m: the first event is the update a direct watchKlines emits first', async () => {
    const sim = await simulator(50)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['klines:0:1m'])
    const [relayed] = await first(consumer(sim, prefix).watchKlines(0, '1m'), 1)
    const [polled] = await first(direct(sim).watchKlines(0, '1m'), 1)
    expect(relayed?.type).toBe('update')
    expect(polled?.type).toBe('update')
    expect(relayed).toEqual(polled)
  })

  it('klines across a relay change: every closed candle once, in order, as a polling venue has them', async () => {
    // A few ticks of trades: a candle is open.
    const sim = await simulator(8)
    const prefix = nextPrefix()
    const firstRelay = await relayOn(sim, prefix, ['klines:0:1m'])
    const events = collect(consumer(sim, prefix).watchKlines(0, '1m'))
    const closed = () => events.flatMap((e) => (e.type === 'closed' ? [e.candle] : []))
    // A minute is 240 ticks: each step closes a candle.
    const step = async (count: number) => {
      sim.advance(250)
      await waitFor(() => closed().length >= count, `${count} closed candles`)
    }
    // The open candle first: the relay has polled before the market moves.
    await waitFor(() => events.length > 0, 'the open candle')
    await step(1)
    await step(2)
    // The relay goes; two candles close with none running; another relay goes on.
    await firstRelay.close()
    sim.advance(500)
    await relayOn(sim, prefix, ['klines:0:1m'])
    await step(5)
    const polled = await first(
      direct(sim)
        .watchKlines(0, '1m', { since: 0 })
        .pipe(filter((e) => e.type === 'closed')),
      closed().length,
    )
    expect(closed()).toEqual(polled.map((e) => e.candle))
    const starts = closed().map((candle) => candle.timestamp)
    expect(starts).toEqual([...new Set(starts)].sort((a, b) => a - b))
  })

  it('klines: a candle the last session left open and that closed while none ran is published closed by the next', async () => {
    const sim = await simulator(8)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['klines:0:1m'])
    const events = collect(consumer(sim, prefix).watchKlines(0, '1m'))
    await waitFor(() => events.length > 0, 'the open candle')
    const open = events[0]?.candle.timestamp
    // The relay loses its lease before any candle closed (deleted here; a blocked event
    // loop lets it run out), and the open candle closes before it publishes again: its
    // next session starts on the same venue, whose candle poller lingers.
    const admin = new Redis(server().url)
    onCleanup(() => admin.disconnect())
    await admin.del(...(await admin.keys(`${prefix}:*:lease`)))
    sim.advance(250)
    await waitFor(() => events.some((e) => e.type === 'closed'), 'the closed candle')
    const closed = events.filter((e) => e.type === 'closed').map((e) => e.candle)
    const polled = await first(
      direct(sim)
        .watchKlines(0, '1m', { since: 0 })
        .pipe(filter((e) => e.type === 'closed')),
      1,
    )
    expect(closed[0]?.timestamp).toBe(open)
    expect(closed[0]).toEqual(polled[0]?.candle)
  })

  it('trades:0 across a relay change: no trade twice, none lost while fewer than a window passed', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    const truth = () =>
      sim.truth.publicTrades(0).map((trade) => ({ ...trade, traded_at: trade.traded_at * 1000 }))
    const firstRelay = await relayOn(sim, prefix, ['trades:0'])
    const events = collect(consumer(sim, prefix).watchTrades(0))
    const trades = () => events.flatMap((event) => (event.type === 'trade' ? [event.trade] : []))
    /** What tells two trades apart (public trades carry no id). */
    const key = (trade: Omit<PublicTrade, 'traded_at'> & { traded_at: number }) =>
      [trade.traded_at, trade.price, trade.quantity, trade.side, trade.buyer, trade.seller].join()
    const caughtUp = () => {
      const newest = truth().at(-1)
      const got = trades().at(-1)
      return newest !== undefined && got !== undefined && key(got) === key(newest)
    }
    sim.advance(5)
    await waitFor(caughtUp, 'the newest trade through the first relay')
    await firstRelay.close()
    const before = truth().length
    sim.advance(5)
    // Fewer trades than the window of latest trades while no relay runs.
    expect(truth().length - before).toBeGreaterThan(0)
    expect(truth().length - before).toBeLessThan(100)
    await relayOn(sim, prefix, ['trades:0'])
    sim.advance(5)
    await waitFor(caughtUp, 'the newest trade through the second relay')
    expect(events.some((event) => event.type === 'gap')).toBe(false)
    // Each trade once, in order: what it got is the venue's newest trades.
    expect(trades()).toEqual(truth().slice(-trades().length))
    expect(trades().length).toBeGreaterThan(truth().length - before)
  })

  it('trades:0: public trades arrive through the relay once the market moves, each once', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    /** The simulator's public trades of pool 0 as the venue serves them (`traded_at` in ms). */
    const truth = () =>
      sim.truth.publicTrades(0).map((trade) => ({ ...trade, traded_at: trade.traded_at * 1000 }))
    await relayOn(sim, prefix, ['trades:0'])
    const relayed = collect(consumer(sim, prefix).watchTrades(0))
    const polled = collect(direct(sim).watchTrades(0))
    const tradesOf = (events: readonly PublicTradeEvent[]) =>
      events.map((event) => (event.type === 'trade' ? event.trade : event))
    /** What tells two trades apart (public trades carry no id). */
    const key = (trade: Omit<PublicTrade, 'traded_at'> & { traded_at: number }) =>
      [trade.traded_at, trade.price, trade.quantity, trade.side, trade.buyer, trade.seller].join()
    const newest = (events: readonly PublicTradeEvent[]) => {
      const last = events.at(-1)
      return last?.type === 'trade' ? key(last.trade) : undefined
    }
    // Until both read: the market moves, and the newest trade reaches both.
    for (let round = 0; relayed.length === 0; round += 1) {
      expect(round).toBeLessThan(5)
      sim.advance(5)
      const latest = truth().at(-1)
      expect(latest).toBeDefined()
      await waitFor(
        () =>
          latest !== undefined && [relayed, polled].every((seen) => newest(seen) === key(latest)),
        'the newest trade through both',
      )
    }
    const [fromRelayed, fromPolled, fromTruth] = [relayed.length, polled.length, truth().length]
    sim.advance(10)
    const added = truth().slice(fromTruth)
    expect(added.length).toBeGreaterThan(0)
    await waitFor(
      () =>
        relayed.length >= fromRelayed + added.length && polled.length >= fromPolled + added.length,
      'the new trades through both',
    )
    const fresh = relayed.slice(fromRelayed)
    expect(fresh.every((event) => event.type === 'trade')).toBe(true)
    expect(tradesOf(fresh)).toEqual(added)
    expect(fresh).toEqual(polled.slice(fromPolled))
    // Everything it got is the venue's newest trades, each once, in order.
    expect(relayed.every((event) => event.type === 'trade')).toBe(true)
    expect(tradesOf(relayed)).toEqual(truth().slice(-relayed.length))
    expect(relayed).toEqual(polled.slice(-relayed.length))
    expect(relayed).toHaveLength(fromRelayed + added.length)
    expect(polled).toHaveLength(fromPolled + added.length)
  })

  it('watchOrderBook(0): each book equals the depth the venue serves at that market state', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    await relayOn(sim, prefix, ['depth:0'])
    const books = collect(consumer(sim, prefix).watchOrderBook(0))
    const rest = direct(sim).rest
    let from = 0
    for (let round = 0; round < 5; round += 1) {
      if (round > 0) sim.advance(5)
      const served = await rest.depth({ poolId: 0 })
      const same = (book: OrderBook | undefined) =>
        book !== undefined &&
        JSON.stringify([book.bids, book.asks]) === JSON.stringify([served.bids, served.asks])
      await waitFor(() => same(books.at(-1)), `the book of round ${round}`)
      // Every book of this market state is the served one.
      const these = books.slice(from)
      expect(these.length).toBeGreaterThan(0)
      for (const book of these) {
        expect(book.bids).toEqual(served.bids)
        expect(book.asks).toEqual(served.asks)
      }
      from = books.length
    }
    const seqs = books.map((book) => book.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
  })

  it('health: a consumer subscribed before any relay publishes gets its first value once one starts', async () => {
    const sim = await simulator(20)
    const prefix = nextPrefix()
    const venue = consumer(sim, prefix)
    const events = collect<BookEvent>(venue.watchDepth(0))
    const pools = collect(venue.watchPools())
    // Both readers have read their streams, with nothing in them yet.
    await waitFor(
      () => healthOf(venue, 'relay depth:0') === 'ok' && healthOf(venue, 'relay pools') === 'ok',
      'both readers reading',
    )
    expect(events).toEqual([])
    expect(pools).toEqual([])
    await relayOn(sim, prefix, ['depth:0', 'pools'])
    await waitFor(() => events.length >= 1 && pools.length >= 1, 'the first values')
    const served = direct(sim).rest
    expect(events[0]?.type).toBe('snapshot')
    const depth = await served.depth({ poolId: 0 })
    expect(events[0]?.type === 'snapshot' && events[0].bids).toEqual(depth.bids)
    expect(pools[0]).toEqual(await served.pools())
    const health = await firstValueFrom(venue.health)
    expect(health['relay depth:0']?.state).toBe('ok')
    expect(health['relay pools']?.state).toBe('ok')
  })
})
