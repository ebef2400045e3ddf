/**
 * What the relay publisher makes of the first poll of public trades and open orders on a
 * takeover: the poll comes as one batch flagged `initial` (not as a synchronous run of
 * events), and only that batch is sorted out against what the last relay published. No
 * Redis and no clock here: the sources are subjects, `publish` records.
 */
import { Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { OpenOrder, OrderWithTrades, PublicTrade, Venue } from '../src/index.js'
import {
  IN_FLIGHT_MAX,
  type InOrder,
  type Publish,
  streamSource,
  type Takeover,
} from '../src/relay-publisher/stream-sources.js'
import type {
  OpenOrderEvent,
  PollBatch,
  PublicTradeEvent,
  RelaySources,
} from '../src/streams/relay-sources.js'
import { openOrder, order, publicTrade } from './helpers/fixtures.js'

/** A public trade `seconds` after the fixture's, told apart by its time. */
const trade = (seconds: number) =>
  ({ ...publicTrade, traded_at: publicTrade.traded_at + seconds }) as unknown as PublicTrade

const asTrades = (...trades: PublicTrade[]): PublicTradeEvent[] =>
  trades.map((each) => ({ type: 'trade', trade: each }))

/** A publisher of one stream over subjects: what it published, in order. */
function rig(kind: 'trades' | 'open-orders', takeover: Partial<Takeover>, venue = {}) {
  const trades = new Subject<PollBatch<PublicTradeEvent>>()
  const openOrders = new Subject<PollBatch<OpenOrderEvent>>()
  const sources: RelaySources = { trades: () => trades, openOrders: () => openOrders }
  const published: unknown[] = []
  /** The number of events of each publish (each one a round trip to Redis). */
  const calls: number[] = []
  const publish: Publish = async (entries) => {
    calls.push(entries.length)
    for (const { event } of entries) published.push(event)
    return true
  }
  let steps: Promise<unknown> = Promise.resolve()
  const inOrder: InOrder = (step) => {
    steps = steps.then(step)
  }
  const stream = kind === 'trades' ? ({ kind, poolId: 1 } as const) : ({ kind } as const)
  const subscription = streamSource(
    stream,
    venue as Venue,
    sources,
    { resume: undefined, lastClosed: undefined, published: [], state: undefined, ...takeover },
    publish,
    inOrder,
  ).subscribe()
  /** Waits for every publish, those queued by a publish's own step too. */
  const drained = async () => {
    for (let seen: Promise<unknown> | undefined; seen !== steps; ) {
      seen = steps
      await seen
    }
  }
  return { trades, openOrders, published, calls, subscription, drained }
}

describe('relay publisher: the first poll on a takeover', () => {
  it('publishes of the initial window of trades only what follows the trades published last', async () => {
    const { trades, published, subscription, drained } = rig('trades', {
      published: [trade(1), trade(2)],
    })
    trades.next({ initial: true, events: asTrades(trade(1), trade(2), trade(3)) })
    // A later poll is published as it is, even a trade equal to one published before.
    trades.next({ initial: false, events: asTrades(trade(2)) })
    await drained()
    subscription.unsubscribe()
    expect(published).toEqual(asTrades(trade(3), trade(2)))
  })

  it("publishes a poll's events in one call, and polls that come while one is written in the next", async () => {
    const { trades, published, calls, subscription, drained } = rig('trades', {})
    trades.next({ initial: true, events: asTrades(trade(1), trade(2), trade(3)) })
    await drained()
    expect(calls).toEqual([3])
    // Two polls before the first one's publish starts: one call; a third after it: another.
    trades.next({ initial: false, events: asTrades(trade(4), trade(5)) })
    trades.next({ initial: false, events: asTrades(trade(6)) })
    await Promise.resolve()
    trades.next({ initial: false, events: asTrades(trade(7)) })
    await drained()
    subscription.unsubscribe()
    expect(calls).toEqual([3, 3, 1])
    expect(published).toEqual(asTrades(...[1, 2, 3, 4, 5, 6, 7].map(trade)))
  })

  it('calls a gap when the initial window does not overlap the trades published last', async () => {
    const { trades, published, subscription, drained } = rig('trades', { published: [trade(1)] })
    trades.next({ initial: true, events: asTrades(trade(5)) })
    await drained()
    subscription.unsubscribe()
    const at = (seconds: number) => (trade(seconds) as { traded_at: number }).traded_at
    expect(published).toEqual([
      { type: 'gap', poolId: 1, since: at(1), until: at(5) },
      ...asTrades(trade(5)),
    ])
  })

  it('closes the orders the last relay left open when the first poll finds none open', async () => {
    const left = { ...openOrder, id: '1-7-0' } as unknown as OpenOrder
    const final = { ...order, status: 2, history: true, trades: [] } as unknown as OrderWithTrades
    const venue = { rest: { order: async () => final } }
    const { openOrders, published, subscription, drained } = rig(
      'open-orders',
      { state: [{ type: 'opened', order: left }] },
      venue,
    )
    openOrders.next({ initial: true, events: [] })
    await drained()
    subscription.unsubscribe()
    expect(published).toEqual([{ type: 'closed', order: left, status: 'filled', final }])
  })
})

describe('relay publisher: publishes pipelined', () => {
  it(`sends each poll's publish without waiting for the replies before it; ${IN_FLIGHT_MAX} unanswered, what comes next gathers in one`, async () => {
    const trades = new Subject<PollBatch<PublicTradeEvent>>()
    const sources: RelaySources = { trades: () => trades, openOrders: () => new Subject() }
    const calls: unknown[][] = []
    const replies: ((ok: boolean) => void)[] = []
    const publish: Publish = (entries) => {
      calls.push(entries.map(({ event }) => event))
      return new Promise((resolve) => replies.push(resolve))
    }
    let steps: Promise<unknown> = Promise.resolve()
    const inOrder: InOrder = (step) => {
      steps = steps.then(step)
    }
    const takeover = { resume: undefined, lastClosed: undefined, published: [], state: undefined }
    const subscription = streamSource(
      { kind: 'trades', poolId: 1 },
      {} as Venue,
      sources,
      takeover,
      publish,
      inOrder,
    ).subscribe()
    // Every step and reply handled that can be, before the next poll.
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    const polls = IN_FLIGHT_MAX + 2
    for (let i = 1; i <= polls; i += 1) {
      trades.next({ initial: i === 1, events: asTrades(trade(i)) })
      await turn()
    }
    // None answered: one call per poll up to the bound; the last two polls wait, together.
    expect(calls).toEqual(Array.from({ length: IN_FLIGHT_MAX }, (_, i) => asTrades(trade(i + 1))))
    replies[0]?.(true)
    await turn()
    expect(calls.at(-1)).toEqual(asTrades(trade(polls - 1), trade(polls)))
    for (const reply of replies) reply(true)
    await steps
    subscription.unsubscribe()
    expect(calls.flat()).toEqual(asTrades(...Array.from({ length: polls }, (_, i) => trade(i + 1))))
  })
})
