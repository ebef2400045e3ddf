import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { addDecimal, compareDecimal } from '../src/decimal.js'
import type { Fill, OrderEvent } from '../src/index.js'
import { createVenue, VenueInputError } from '../src/index.js'
import type { AccountView, TradeDetailRecord } from '../src/simulator/index.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { accountInfo, openOrder, orderWithTrades, tradeDetail } from './helpers/fixtures.js'
import { collect } from './helpers/observe.js'
import { ok, startRecordingServer } from './helpers/recording-server.js'
import { TEST_KEY } from './helpers/rest-venue.js'
import { count, FAST, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

/** The account's fills in a trade, worked out from the simulator's own record. */
function truthFills(trade: TradeDetailRecord, account: string) {
  const fills: { seq: string; role: string; side: string; fee: string; orderId: string }[] = []
  const takerSide = trade.taker_is_bid ? 'buy' : 'sell'
  const makerSide = trade.taker_is_bid ? 'sell' : 'buy'
  if (trade.maker === account) {
    fills.push({
      seq: String(trade.global_seq),
      role: 'maker',
      side: makerSide,
      fee: trade.maker_fee,
      orderId: String(trade.maker_order_id),
    })
  }
  if (trade.taker === account) {
    fills.push({
      seq: String(trade.global_seq),
      role: 'taker',
      side: takerSide,
      fee: trade.taker_fee,
      orderId: String(trade.taker_order_id),
    })
  }
  return fills
}

const view = (fill: Fill) => ({
  seq: fill.globalSeq,
  role: fill.role,
  side: fill.side,
  fee: fill.fee,
  orderId: fill.orderId,
})

function demo(account: AccountView | undefined): AccountView {
  if (account === undefined) throw new Error('no demo account')
  return account
}

describe('watchFills against the simulator', () => {
  it('delivers every fill of the account exactly once, in global_seq order, with its role, side and fee', async () => {
    const { sim, venue } = await startSimulatorVenue(FAST, { ticks: 300 })
    const account = demo(sim.market.account(sim.apiKey))
    const name = account.info().chain_account
    const want = account.trades().flatMap((trade) => truthFills(trade, name))
    expect(want.length).toBeGreaterThan(50)
    const fills = await firstValueFrom(venue.watchFills().pipe(take(want.length), toArray()))
    expect(fills.map(view)).toEqual(want)
    // Then the tail: the fills of the next ticks, each once.
    const more = collect(venue.watchFills({ cursor: fills.at(-1)?.globalSeq }))
    sim.advance(50)
    const next = account
      .trades()
      .flatMap((trade) => truthFills(trade, name))
      .slice(want.length)
    expect(next.length).toBeGreaterThan(0)
    await waitFor(() => more.values.length >= next.length, 'the new fills')
    expect(more.values.map(view)).toEqual(next)
  })

  it('refuses a bad cursor or pool at the call', async () => {
    const { venue } = await startSimulatorVenue(FAST)
    expect(() => venue.watchFills({ cursor: '12/2' })).toThrow(VenueInputError)
    expect(() => venue.watchFills({ poolId: -1 })).toThrow(VenueInputError)
  })
})

describe('watchOrder against the simulator', () => {
  it('replays the fills of every ended order of the demo account, then done with how it ended', async () => {
    const { sim, venue, hits } = await startSimulatorVenue(FAST, { ticks: 40 })
    const account = demo(sim.market.account(sim.apiKey))
    const name = account.info().chain_account
    const ended = account.historyOrders()
    const outcome = { 2: 'filled', 3: 'canceled', 4: 'rejected', 1: 'canceled', 0: 'canceled' }
    const seen = new Set<string>()
    for (const order of ended.slice(0, 12)) {
      const events = await lastValueFrom(venue.watchOrder(order.id).pipe(toArray()))
      const done = events.at(-1) as Extract<OrderEvent, { type: 'done' }>
      expect(done.type).toBe('done')
      expect(done.status).toBe(outcome[order.status as keyof typeof outcome])
      seen.add(`${order.status} ${done.status}`)
      const [pool, id, side] = order.id.split('-').map(Number)
      const truth = account.order(pool ?? -1, id ?? -1, side === 1 ? 1 : 0)
      const fills = events.filter((e) => e.type === 'fill').map((e) => e.fill)
      const want = (truth?.trades ?? [])
        .flatMap((trade) => truthFills(trade, name))
        .filter((fill) => fill.orderId === String(order.order_id))
      expect(fills.map(view)).toEqual(want)
      // The fills add up exactly to the executed amount.
      const sum = fills.reduce((total, fill) => addDecimal(total, fill.quantity), '0')
      expect(compareDecimal(sum, order.executed_amount)).toBe(0)
      expect(compareDecimal(done.order.filled, order.executed_amount)).toBe(0)
    }
    // The demo script's outcomes, the partial-cancel quirk (status 1 in history) included.
    expect([...seen]).toEqual(
      expect.arrayContaining(['2 filled', '3 canceled', '4 rejected', '1 canceled']),
    )
    // Twelve streams one after the other: the account info was asked for once, by the venue.
    expect(count(hits, '/api/v1/info')).toBe(1)
  })

  it('follows a working order to its end: each fill once as it happens, then done', async () => {
    const { sim, venue, hits } = await startSimulatorVenue(FAST, { ticks: 12 })
    const account = demo(sim.market.account(sim.apiKey))
    const name = account.info().chain_account
    const working = account.openOrders()
    expect(working.length).toBeGreaterThan(0)
    const streams = working.map((order) => ({ order, events: collect(venue.watchOrder(order.id)) }))
    // One tick at a time, each seen by two polls of the open orders: fills as they happen.
    for (
      let tick = 0;
      tick < 400 && streams.some((s) => s.events.values.at(-1)?.type !== 'done');
      tick += 1
    ) {
      sim.advance(1)
      const polled = count(hits, '/api/v1/open-orders')
      await waitFor(() => count(hits, '/api/v1/open-orders') >= polled + 2, 'two polls')
    }
    await waitFor(
      () => streams.every((s) => s.events.values.at(-1)?.type === 'done'),
      'every order done',
      10_000,
    )
    for (const { order, events } of streams) {
      const fills = events.values.filter((e) => e.type === 'fill').map((e) => e.fill)
      const [pool, id, side] = order.id.split('-').map(Number)
      const truth = account.order(pool ?? -1, id ?? -1, side === 1 ? 1 : 0)
      const want = (truth?.trades ?? [])
        .flatMap((trade) => truthFills(trade, name))
        .filter((fill) => fill.orderId === String(order.order_id))
      expect(fills.map(view)).toEqual(want)
      expect(events.values.filter((e) => e.type === 'done')).toHaveLength(1)
    }
  })

  it('refuses a bad reference or option at the call', async () => {
    const { venue } = await startSimulatorVenue(FAST)
    expect(() => venue.watchOrder('1-2')).toThrow(VenueInputError)
    expect(() => venue.watchOrder({ clientId: '' })).toThrow(VenueInputError)
    expect(() => venue.watchOrder('0-1-0', { visibleWithinMs: -1 })).toThrow(VenueInputError)
  })

  it.each(['.', '..', 'a\u0000b', 'a\ud800', '\udc00b'])(
    'refuses the client id %j at the call, before any request (found by fuzzing)',
    async (clientId) => {
      const { venue, hits } = await startSimulatorVenue(FAST)
      let thrown: unknown
      try {
        venue.watchOrder({ clientId })
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(VenueInputError)
      expect((thrown as VenueInputError).argument).toBe('clientId')
      expect((thrown as Error).message.startsWith('watchOrder: ')).toBe(true)
      expect(hits).toEqual([])
    },
  )

  it('refuses placedAfter with an order id, or that is not epoch ms, and fillGraceMs below 0', async () => {
    const { venue } = await startSimulatorVenue(FAST)
    const refused = (call: () => unknown, argument: string) => {
      expect(call).toThrow(VenueInputError)
      try {
        call()
      } catch (error) {
        expect((error as VenueInputError).argument).toBe(argument)
      }
    }
    refused(() => venue.watchOrder('0-1-0', { placedAfter: 0 }), 'placedAfter')
    refused(() => venue.watchOrder({ clientId: 'a' }, { placedAfter: -1 }), 'placedAfter')
    refused(() => venue.watchOrder({ clientId: 'a' }, { placedAfter: 1.5 }), 'placedAfter')
    refused(() => venue.watchOrder('0-1-0', { fillGraceMs: -1 }), 'fillGraceMs')
  })

  it('gives up on an order the venue never shows after visibleWithinMs, with VenueNotFoundError', async () => {
    const { venue } = await startSimulatorVenue(FAST)
    const error = await lastValueFrom(
      venue.watchOrder('0-999999-0', { visibleWithinMs: 200 }),
    ).catch((caught: unknown) => caught)
    expect((error as Error).name).toBe('VenueNotFoundError')
  })
})

describe('watchOrder updates, against a scripted venue', () => {
  it('emits update when the open order changes without a fill, then done when it ends', async () => {
    const server = await startRecordingServer()
    onCleanup(() => server.close())
    const venue = createVenue({ baseUrl: server.url, apiKey: TEST_KEY, ...FAST })
    onCleanup(() => venue.close())
    // An order with its one fill (the fixture trade), resting; later its price is amended,
    // then it is canceled.
    let phase: 'open' | 'amended' | 'canceled' = 'open'
    const record = () => ({
      ...openOrder,
      order_price: phase === 'open' ? '1.045' : '1.044',
    })
    server.handle((request) => {
      switch (request.pathname) {
        case '/api/v1/info':
          return ok(accountInfo)
        case '/api/v1/trades':
          return ok(request.query['sort'] === 'desc' ? [tradeDetail] : [])
        case '/api/v1/open-orders':
          return phase === 'canceled' ? ok([], { total: 0 }) : ok([record()], { total: 1 })
        case '/api/v1/orders/1-7-0':
          return ok({
            ...orderWithTrades,
            ...record(),
            ...(phase === 'canceled' ? { status: 3, history: true } : {}),
          })
        default:
          return ok(null)
      }
    })
    const events = collect(venue.watchOrder('1-7-0'))
    await waitFor(() => events.values.length >= 1, 'the replayed fill')
    // The fill the order already had, once; no update while nothing changes.
    const polled = server.requests.length
    await waitFor(() => server.requests.length >= polled + 6, 'more polls')
    expect(events.values.map((e) => e.type)).toEqual(['fill'])
    phase = 'amended'
    await waitFor(() => events.values.length >= 2, 'the update')
    const update = events.values[1]
    expect(update?.type).toBe('update')
    expect(update?.order.record.order_price).toBe('1.044')
    expect(update?.order.filled).toBe('2')
    phase = 'canceled'
    await waitFor(() => events.values.at(-1)?.type === 'done', 'done')
    expect(events.values.map((e) => e.type)).toEqual(['fill', 'update', 'done'])
    const done = events.values.at(-1) as Extract<OrderEvent, { type: 'done' }>
    expect([done.status, done.order.filled, done.order.remaining, done.order.avgPrice]).toEqual([
      'canceled',
      '2',
      '8',
      '1.045',
    ])
  })
})
