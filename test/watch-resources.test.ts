import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { firstValueFrom, type Observable } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type {
  BalancesUpdate,
  OpenOrder,
  OpenOrderEvent,
  Venue,
  VenueOptions,
} from '../src/index.js'
import { VenueAbortError, VenueAuthError, VenueInputError } from '../src/index.js'
import { balanceSchema, openOrderSchema, tokenSchema } from '../src/schemas/index.js'
import type {
  AccountView,
  PoolDetailRecord,
  PoolSummaryRecord,
  Simulator,
} from '../src/simulator/index.js'
import { SIMULATOR_SYSTEM_INFO } from '../src/simulator/server/general-handlers.js'
import { BUILT_INDEX } from './helpers/built.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import {
  atMostOnePer,
  count,
  FAST,
  type Hit,
  startSimulatorVenue,
} from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

interface Setup {
  readonly sim: Simulator
  readonly venue: Venue
  /** Every request the simulator received since the start, in arrival order. */
  readonly hits: Hit[]
  readonly account: AccountView
}

afterEach(() => runCleanups())

async function setup(
  options: Partial<VenueOptions> = {},
  { withKey = true, ticks = 0 }: { withKey?: boolean; ticks?: number } = {},
): Promise<Setup> {
  const { sim, venue, hits } = await startSimulatorVenue(
    { ...FAST, ...options },
    { withKey, ticks },
  )
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('the simulator has no demo account')
  return { sim, venue, hits, account }
}

// What the client makes of the simulator's wire records: seconds become milliseconds.
const summaryView = (p: PoolSummaryRecord) => ({ ...p, updated_at: p.updated_at * 1000 })
const detailView = (d: PoolDetailRecord) => ({
  ...d,
  asking_time: d.asking_time * 1000,
  trading_time: d.trading_time * 1000,
  pool_stats: summaryView(d.pool_stats),
})
const balancesView = (account: AccountView) => z.array(balanceSchema).parse(account.balances())
const openOrdersView = (account: AccountView): OpenOrder[] =>
  z.array(openOrderSchema).parse(account.openOrders())

/** The open orders a sequence of events describes, by id. */
function openOrdersState(events: readonly OpenOrderEvent[]): Map<string, OpenOrder> {
  const state = new Map<string, OpenOrder>()
  for (const event of events) {
    if (event.type === 'closed') state.delete(event.order.id)
    else state.set(event.order.id, event.order)
  }
  return state
}

/** Whether two lists hold the same orders, in any order. */
function sameOrders(a: readonly OpenOrder[], b: readonly OpenOrder[]): boolean {
  const byId = (orders: readonly OpenOrder[]) =>
    JSON.stringify([...orders].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)))
  return byId(a) === byId(b)
}

describe('resource streams emit validated data that matches the simulator', () => {
  it('watchPools emits every pool summary as the simulator serves it', async () => {
    const { sim, venue } = await setup({}, { ticks: 20 })
    const pools = await firstValueFrom(venue.watchPools())
    expect(pools).toEqual(sim.market.poolSummaries().map(summaryView))
    expect(pools.map((p) => p.pool_id)).toEqual([0, 1, 2])
  })

  it('watchPool(id) and watchPool(symbol) emit the same pool detail', async () => {
    const { sim, venue, hits } = await setup({}, { ticks: 20 })
    const symbol = sim.market.poolSummaries()[1]?.symbol ?? ''
    const byId = await firstValueFrom(venue.watchPool(1))
    const bySymbol = await firstValueFrom(venue.watchPool(symbol))
    const truth = sim.market.poolDetail('1')
    if (truth === undefined) throw new Error('no pool 1')
    expect(byId).toEqual(detailView(truth))
    expect(bySymbol).toEqual(byId)
    expect(count(hits, '/api/v1/pools/1')).toBeGreaterThan(0)
    expect(count(hits, `/api/v1/pools/${symbol}`)).toBeGreaterThan(0)
  })

  it('watchTokens emits every token, validated', async () => {
    const { sim, venue } = await setup()
    const tokens = await firstValueFrom(venue.watchTokens())
    expect(tokens.map((t) => t.symbol)).toEqual(sim.market.tokens().map((t) => t.symbol))
    expect(tokens).toEqual(z.array(tokenSchema).parse(sim.market.tokens()))
  })

  it('watchSystemInfo emits the simulator system info', async () => {
    const { venue } = await setup()
    expect(await firstValueFrom(venue.watchSystemInfo())).toEqual(SIMULATOR_SYSTEM_INFO)
  })

  it('watchAccount emits the account behind the API key', async () => {
    const { venue, account } = await setup()
    expect(await firstValueFrom(venue.watchAccount())).toEqual(account.info())
  })

  it('watchBalances first lists every coin as added, with the balances the account has', async () => {
    const { venue, account } = await setup({}, { ticks: 10 })
    const update = await firstValueFrom(venue.watchBalances())
    const truth = balancesView(account)
    expect(update.balances).toEqual(truth)
    expect([...update.byCoin.keys()]).toEqual(truth.map((b) => b.coin))
    expect(update.changes).toEqual(
      truth.map((current) => ({ type: 'added', coin: current.coin, current })),
    )
  })

  it('watchOpenOrders first emits opened for every open order', async () => {
    const { venue, account } = await setup({}, { ticks: 4 })
    const truth = openOrdersView(account)
    expect(truth.length).toBeGreaterThan(0)
    const events = collect(venue.watchOpenOrders())
    await events.nth(truth.length)
    expect(events.values).toEqual(truth.map((order) => ({ type: 'opened', order })))
  })
})

describe('deep-distinct emission with a manual clock', () => {
  const cases: {
    name: string
    watch: (venue: Venue) => Observable<unknown>
    path: string
  }[] = [
    { name: 'watchPools', watch: (v) => v.watchPools(), path: '/api/v1/pools' },
    { name: 'watchPool(0)', watch: (v) => v.watchPool(0), path: '/api/v1/pools/0' },
    { name: 'watchTokens', watch: (v) => v.watchTokens(), path: '/api/v1/tokens' },
    { name: 'watchSystemInfo', watch: (v) => v.watchSystemInfo(), path: '/api/v1/system-info' },
    { name: 'watchAccount', watch: (v) => v.watchAccount(), path: '/api/v1/info' },
    { name: 'watchBalances', watch: (v) => v.watchBalances(), path: '/api/v1/balances' },
  ]
  for (const { name, watch, path } of cases) {
    it(`${name} emits an unchanged resource once, however many polls`, async () => {
      const { sim, venue, hits } = await setup()
      const values = collect(watch(venue))
      await values.nth(1)
      const polled = count(hits, path)
      await waitFor(() => count(hits, path) >= polled + 10, '10 more polls')
      expect(values.values).toHaveLength(1)
      // The per-route log agrees with the simulator's own count.
      expect(sim.faults.stats().requests).toBe(hits.length)
    })
  }

  it('watchOpenOrders emits opened once per order, however many polls', async () => {
    const { venue, hits, account } = await setup({}, { ticks: 4 })
    const events = collect(venue.watchOpenOrders())
    const open = account.openOrders().length
    await events.nth(open)
    const polled = count(hits, '/api/v1/open-orders')
    await waitFor(() => count(hits, '/api/v1/open-orders') >= polled + 10, '10 more polls')
    expect(events.values).toHaveLength(open)
  })

  it('watchPools emits again after advance, with the new summaries', async () => {
    const { sim, venue, hits } = await setup()
    const values = collect(venue.watchPools())
    await values.nth(1)
    await waitFor(() => count(hits, '/api/v1/pools') >= 5, 'a few polls')
    sim.advance(5)
    const second = await values.nth(2)
    expect(second).toEqual(sim.market.poolSummaries().map(summaryView))
    expect(second).not.toEqual(values.values[0])
  })

  it('watchBalances with includeValuation lists the coins whose entry changed in any field, with previous and current', async () => {
    const { sim, venue, account } = await setup()
    const updates = collect(venue.watchBalances({ includeValuation: true }))
    let last = await updates.nth(1)
    let changedCoins = 0
    for (let step = 2; step <= 6; step += 1) {
      sim.advance(1)
      const update: BalancesUpdate = await updates.nth(step)
      const truth = balancesView(account)
      expect(update.balances).toEqual(truth)
      const expected = truth
        .filter((b) => JSON.stringify(last.byCoin.get(b.coin)) !== JSON.stringify(b))
        .map((current) => ({
          type: 'changed',
          coin: current.coin,
          previous: last.byCoin.get(current.coin),
          current,
        }))
      expect(expected.length).toBeGreaterThan(0)
      expect(update.changes).toEqual(expected)
      changedCoins += update.changes.length
      last = update
    }
    expect(changedCoins).toBeGreaterThan(0)
  })

  it('watchBalances emits only when a holding changed: a valuation-only tick emits nothing', async () => {
    const { sim, venue, hits, account } = await setup()
    const updates = collect(venue.watchBalances())
    let last = await updates.nth(1)
    const holding = (b: { balance: string; locked: string; locks: unknown }) =>
      JSON.stringify([b.balance, b.locked, b.locks])
    let quiet = 0
    let moved = 0
    for (let tick = 1; tick <= 40 && (quiet === 0 || moved === 0); tick += 1) {
      sim.advance(1)
      const truth = balancesView(account)
      const changed = truth.filter((b) => {
        const before = last.byCoin.get(b.coin)
        return before === undefined || holding(before) !== holding(b)
      })
      const emitted = updates.values.length
      if (changed.length === 0) {
        // Two full polls after the tick: the valuation moved, the holdings did not.
        const polled = count(hits, '/api/v1/balances')
        await waitFor(() => count(hits, '/api/v1/balances') >= polled + 2, 'two more polls')
        expect(updates.values).toHaveLength(emitted)
        quiet += 1
      } else {
        const update: BalancesUpdate = await updates.nth(emitted + 1)
        expect(update.changes.map((c) => c.coin)).toEqual(changed.map((b) => b.coin))
        expect(update.balances).toEqual(truth)
        last = update
        moved += 1
      }
    }
    // The run saw both kinds of tick.
    expect([quiet > 0, moved > 0]).toEqual([true, true])
  })

  it('watchOpenOrders events replay every tick of the market: opened, changed, closed', async () => {
    const { sim, venue, account } = await setup({}, { ticks: 2 })
    const stream = collect(venue.watchOpenOrders())
    const events = stream.values
    const inSync = () => sameOrders([...openOrdersState(events).values()], openOrdersView(account))
    await waitFor(inSync, 'the initial open orders')
    expect(events.every((e) => e.type === 'opened')).toBe(true)

    let closed = 0
    let filled = 0
    // How each closed order ended, by the venue's final status.
    const endings = new Set<string>()
    const wanted = ['2 filled', '3 canceled']
    for (
      let tick = 0;
      tick < 120 && (closed === 0 || filled === 0 || wanted.some((w) => !endings.has(w)));
      tick += 1
    ) {
      const before = new Map(openOrdersView(account).map((o) => [o.id, o]))
      const from = events.length
      sim.advance(1)
      const after = openOrdersView(account)
      await waitFor(inSync, `the open orders after tick ${tick}`)
      const step = events.slice(from)
      const afterIds = new Set(after.map((o) => o.id))
      // Exactly the events the two states imply.
      const expectedClosed = [...before.values()].filter((o) => !afterIds.has(o.id))
      const expectedChanged = after.filter(
        (o) => before.has(o.id) && JSON.stringify(before.get(o.id)) !== JSON.stringify(o),
      )
      const expectedOpened = after.filter((o) => !before.has(o.id))
      expect(step.filter((e) => e.type === 'closed').map((e) => e.order)).toEqual(expectedClosed)
      expect(step.filter((e) => e.type === 'opened').map((e) => e.order)).toEqual(expectedOpened)
      const changed = step.filter((e) => e.type === 'changed')
      expect(changed.map((e) => e.order)).toEqual(expectedChanged)
      for (const event of changed) expect(event.previous).toEqual(before.get(event.order.id))
      // A closed order is in the market's history now.
      const history = new Map(account.historyOrders().map((o) => [o.id, o]))
      for (const order of expectedClosed) {
        expect(history.get(order.id)?.history).toBe(true)
        closed += 1
      }
      // Each closed event tells how the order ended, with its final record and trades.
      for (const event of step) {
        if (event.type !== 'closed') continue
        // The simulator keeps every order: no end here is unknown.
        if (event.status === 'unknown') throw new Error(event.reason)
        const record = history.get(event.order.id)
        const outcome = { 2: 'filled', 3: 'canceled', 4: 'rejected', 1: 'canceled', 0: 'canceled' }
        expect(event.status).toBe(outcome[record?.status as keyof typeof outcome])
        expect(event.final.executed_amount).toBe(record?.executed_amount)
        expect(event.final.status).toBe(record?.status)
        const [poolId, orderId, side] = event.order.id.split('-').map(Number)
        const truth = account.order(poolId ?? -1, orderId ?? -1, side === 1 ? 1 : 0)
        expect(event.final.trades.map((t) => t.global_seq)).toEqual(
          truth?.trades.map((t) => String(t.global_seq)),
        )
        endings.add(`${record?.status} ${event.status}`)
      }
      filled += changed.filter((e) => e.previous.executed_amount !== e.order.executed_amount).length
    }
    expect(closed).toBeGreaterThan(0)
    expect(filled).toBeGreaterThan(0)
    expect([...endings].sort()).toEqual(expect.arrayContaining(wanted))
  })
})

describe('sharing', () => {
  it('watchPool(1) and watchPool("1") share one poller and one health entry', async () => {
    // Interval pacing: two pollers would send twice the requests.
    const { venue, hits } = await setup({ pollIntervalMs: 50, pacing: 'interval' })
    const subscribers = [collect(venue.watchPool(1)), collect(venue.watchPool('1'))]
    await Promise.all(subscribers.map((s) => s.nth(1)))
    const start = count(hits, '/api/v1/pools/1')
    await waitFor(() => count(hits, '/api/v1/pools/1') >= start + 6, '6 more polls')
    // One poller: requests start 50 ms apart at most, so no more of them than the time
    // they span allows (two pollers would send twice as many).
    expect(
      atMostOnePer(
        hits.filter((h) => h.path === '/api/v1/pools/1'),
        50,
      ),
    ).toBe(true)
    const report = await firstValueFrom(venue.health)
    expect(Object.keys(report).filter((key) => key.startsWith('watchPool('))).toEqual([
      'watchPool("1")',
    ])
  })

  it('a late subscriber gets the latest value at once, before the next poll', async () => {
    const { venue, hits } = await setup({ pollIntervalMs: 1_000 })
    const first = await firstValueFrom(venue.watchPools())
    // The first subscriber left; the poller lingers. Join it again, then late.
    const early = collect(venue.watchPools())
    await early.nth(1)
    const requests = count(hits, '/api/v1/pools')
    let late: unknown
    const subscription = venue.watchPools().subscribe((value) => {
      late ??= value
    })
    onCleanup(async () => subscription.unsubscribe())
    expect(late).toEqual(first)
    expect(count(hits, '/api/v1/pools')).toBe(requests)
  })

  it('a late subscriber of watchBalances starts from every coin added', async () => {
    const { venue, account } = await setup({ lingerMs: 1_000 }, { ticks: 10 })
    const early = collect(venue.watchBalances())
    await early.nth(1)
    const late = await firstValueFrom(venue.watchBalances())
    const truth = balancesView(account)
    expect(late.changes).toEqual(
      truth.map((current) => ({ type: 'added', coin: current.coin, current })),
    )
    expect(early.values).toHaveLength(1)
  })

  it('a late subscriber of watchOpenOrders gets opened for every order open now', async () => {
    const { sim, venue, account } = await setup({ lingerMs: 1_000 }, { ticks: 4 })
    const early = collect(venue.watchOpenOrders())
    await early.nth(account.openOrders().length)
    sim.advance(8)
    const truth = openOrdersView(account)
    // The shared poller catches up with the market, then a late subscriber joins.
    await waitFor(
      () => sameOrders([...openOrdersState(early.values).values()], truth),
      'the early subscriber to see the new orders',
    )
    const late = collect(venue.watchOpenOrders())
    await late.nth(truth.length)
    expect(late.values).toEqual(truth.map((order) => ({ type: 'opened', order })))
  })

  it('identical GETs at the same moment share one request', async () => {
    const { venue, hits } = await setup()
    const [a, b] = await Promise.all([venue.rest.pools(), venue.rest.pools()])
    expect(a).toEqual(b)
    expect(count(hits, '/api/v1/pools')).toBe(1)
  })
})

describe('linger and lifecycle', () => {
  it('venue.close() completes every stream and health', async () => {
    const { venue } = await setup({}, { ticks: 4 })
    const streams = [
      collect<unknown>(venue.watchPools()),
      collect<unknown>(venue.watchPool(0)),
      collect<unknown>(venue.watchTokens()),
      collect<unknown>(venue.watchSystemInfo()),
      collect<unknown>(venue.watchAccount()),
      collect<unknown>(venue.watchBalances()),
      collect<unknown>(venue.watchOpenOrders()),
    ]
    await Promise.all(streams.map((s) => s.nth(1)))
    const health = collect(venue.health)
    await venue.close()
    await Promise.all([...streams, health].map((s) => s.done()))
    for (const s of [...streams, health]) {
      expect(s.completed).toBe(true)
      expect(s.error).toBeUndefined()
    }
    await expect(venue.rest.pools()).rejects.toBeInstanceOf(VenueAbortError)
  })

  // Regression: such a call passed the closed guard, took a token (the bucket's close() did
  // not stop later acquires) and reached the closed pool: a retryable VenueNetworkError.
  it('a REST call made in the same tick as venue.close() never fails as a retryable network error', async () => {
    const { venue } = await setup()
    const call = venue.rest.pools().then(
      () => undefined,
      (error: unknown) => error,
    )
    await venue.close()
    const outcome = await call
    expect(outcome === undefined || outcome instanceof VenueAbortError).toBe(true)
  })

  it('an account stream without apiKey fails with VenueAuthError and health shows it, with no request', async () => {
    const { venue, hits } = await setup({}, { withKey: false })
    await expect(firstValueFrom(venue.watchAccount())).rejects.toBeInstanceOf(VenueAuthError)
    await expect(firstValueFrom(venue.watchBalances())).rejects.toBeInstanceOf(VenueAuthError)
    const report = await firstValueFrom(venue.health)
    expect(report['watchAccount()']).toMatchObject({ state: 'failed', errorCode: 'VENUE_AUTH' })
    expect(report['watchBalances()']).toMatchObject({ state: 'failed', errorCode: 'VENUE_AUTH' })
    expect(hits).toEqual([])
  })

  it('watchPool(-1) throws VenueInputError synchronously', async () => {
    const { venue, hits } = await setup()
    expect(() => venue.watchPool(-1)).toThrow(VenueInputError)
    expect(() => venue.watchPool(1.5)).toThrow(VenueInputError)
    expect(() => venue.watchPool('')).toThrow(VenueInputError)
    expect(hits).toEqual([])
  })
})

describe('request budget', () => {
  it('a stream keeps emitting while 200 REST calls wait for the budget', async () => {
    const { sim, venue, hits } = await setup({ maxRequestsPerSecond: 20, pollIntervalMs: 20 })
    let settled = 0
    const rest = Array.from({ length: 200 }, (_, i) =>
      venue.rest.pools({ offset: i }).then(
        () => {
          settled += 1
          return undefined
        },
        (error: unknown) => {
          settled += 1
          return error
        },
      ),
    )
    const balances = collect(venue.watchBalances())
    await balances.nth(1)
    for (let n = 2; n <= 5; n += 1) {
      sim.advance(1)
      await balances.nth(n)
    }
    expect(settled).toBeLessThan(200)
    expect(count(hits, '/api/v1/balances')).toBeGreaterThanOrEqual(5)
    await venue.close()
    const outcomes = await Promise.all(rest)
    const failures = outcomes.filter((o) => o !== undefined)
    expect(failures.length).toBeGreaterThan(0)
    for (const failure of failures) expect(failure).toBeInstanceOf(VenueAbortError)
  })

  // Regression: the token bucket's refill timer was unref'd, so a script whose only pending
  // work was calls waiting for a token exited with them unresolved.
  it('a script whose calls wait for the budget runs until they all resolve', async () => {
    const { sim } = await setup()
    const dir = await mkdtemp(join(tmpdir(), 'venue-rx-budget-'))
    onCleanup(() => rm(dir, { recursive: true, force: true }))
    const script = join(dir, 'budget.mjs')
    await writeFile(
      script,
      [
        `import { createVenue } from ${JSON.stringify(BUILT_INDEX)}`,
        `const venue = createVenue({ baseUrl: ${JSON.stringify(sim.url)}, maxRequestsPerSecond: 5 })`,
        `const calls = Array.from({ length: 12 }, (_, i) => venue.rest.pools({ offset: i }))`,
        `console.log('resolved', (await Promise.all(calls)).length)`,
        `await venue.close()`,
      ].join('\n'),
    )
    const run = promisify(execFile)
    const { stdout } = await run(process.execPath, [script], {
      cwd: process.cwd(),
      timeout: 15_000,
    })
    expect(stdout.trim()).toBe('resolved 12')
  })
})
