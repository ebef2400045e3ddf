/**
 * The state machine of one `watchOrder` subscription as a table: inputs in (the fills feed
 * starting, fills, views of the open orders, the venue's clock and answers), the phase,
 * what it emits and what it asks the venue out. No I/O, no clock: every time is a number in
 * the input. The polling venue's feeds and a relay's differ in what they hold: a relay's
 * fills start with every fill it kept and its list closes every order it listed, so what
 * they show is never asked of the venue.
 */
import { describe, expect, it } from 'vitest'
import type { Fill, OpenOrder, Order } from '../src/index.js'
import type { OrdersView } from '../src/streams/order-feeds.js'
import type { OrderLifeSettings } from '../src/streams/order-life.js'
import {
  startWatch,
  stepWatch,
  type Target,
  type WatchInput,
  type WatchSettings,
  type WatchStep,
} from '../src/streams/order-watch.js'
import type { OrderEnding } from '../src/streams/watch-open-orders.js'

const LIFE: OrderLifeSettings = { lookups: 3, recheckPolls: 2, fillGraceMs: 1_000 }
const POLLED: WatchSettings = { life: LIFE, whole: false, showWithinMs: 0 }
const RELAYED: WatchSettings = {
  life: { ...LIFE, fullAskPolls: 2, askWhileEnding: false },
  whole: true,
  showWithinMs: 1_000,
}

/** A working limit sell of 10, order 0-25-1, client id bot-1, placed at 1,700,000,000 s. */
const OPEN: OpenOrder = {
  id: '0-25-1',
  order_id: '25',
  order_cid: 'bot-1',
  pool_id: 0,
  pool_symbol: 'chain.token-CHN-usdt.ext-USDT',
  pool_base_coin: 'chain.token-CHN',
  pool_quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 2,
  quote_coin_precision: 4,
  side: 1,
  type: 1,
  order_price: '1.04',
  order_amount: '10',
  order_total: '10.4',
  avg_price: '0',
  executed_amount: '0',
  order_time: 1_700_000_000_000,
  trader: 'demo.trader',
}

/** Another working order of the account. */
const OTHER: OpenOrder = { ...OPEN, id: '0-26-1', order_id: '26', order_cid: 'bot-2' }

/** The order as the venue keeps it: `executed` filled, `status`, in the history set. */
function final(executed: string, status: number): Order {
  return {
    ...OPEN,
    executed_amount: executed,
    filled_total: '0',
    history: true,
    permission: 'active',
    status,
    unread: false,
  }
}

/** A fill of the order (or of order `orderId`): `global_seq` `seq`, `quantity` at 1.04. */
function fill(seq: number, quantity: string, orderId = '25'): Fill {
  return {
    globalSeq: String(seq),
    txId: `tx-${seq}`,
    poolId: 0,
    orderId,
    clientId: orderId === '25' ? 'bot-1' : 'bot-2',
    price: '1.04',
    quantity,
    quoteQuantity: '0',
    fee: '0',
    feeCoin: 'usdt.ext-USDT',
    role: 'maker',
    side: 'sell',
    timestamp: 1_700_000_000_000 + seq,
  }
}

/** A view of the open orders: those listed, the endings, whether it is a poll. */
function view(
  listed: readonly OpenOrder[],
  now: number,
  more: { readonly poll?: boolean; readonly endings?: readonly OrderEnding[] } = {},
): WatchInput {
  const orders: OrdersView = {
    open: new Map(listed.map((order) => [order.id, order])),
    endings: more.endings ?? [],
    poll: more.poll ?? true,
  }
  return { type: 'orders', view: orders, now }
}

const ended = (record: Order): OrderEnding => ({
  id: record.id,
  status: record.status === 2 ? 'filled' : 'canceled',
  final: { ...record, trades: [] },
  tradesKnown: false,
})

const READY: WatchInput = { type: 'ready', now: 0 }
const fillOf = (f: Fill): WatchInput => ({ type: 'fill', fill: f })

/** What one step did, in a form a table can state. */
function seen(step: WatchStep): string[] {
  const { state } = step
  const out: string[] = [state.phase === 'finding' ? `finding ${state.plan.type}` : state.phase]
  for (const event of step.events) {
    out.push(
      event.type === 'fill'
        ? `fill ${event.fill.globalSeq}`
        : event.type === 'update'
          ? 'update'
          : `done ${event.status} filled=${event.order.filled}`,
    )
  }
  if (step.ask) out.push('ask')
  if (step.wakeAt !== undefined) out.push(`wake ${step.wakeAt}`)
  if (step.complete) out.push('complete')
  return out
}

function run(target: Target, inputs: readonly WatchInput[], settings: WatchSettings): string[][] {
  let step = startWatch(target)
  const steps: string[][] = []
  for (const input of inputs) {
    step = stepWatch(step.state, input, settings)
    steps.push(seen(step))
  }
  return steps
}

interface Case {
  readonly name: string
  readonly target?: Target
  readonly settings: WatchSettings
  readonly inputs: readonly WatchInput[]
  readonly out: readonly (readonly string[])[]
}

const BY_ID: Target = { id: OPEN.id }

const CASES: readonly Case[] = [
  {
    name: 'polling: a poll replayed at the subscription decides nothing; the first poll after it lists the order without a fill: its recent fills are read',
    settings: POLLED,
    inputs: [READY, view([OPEN], 5, { poll: false }), view([OPEN], 20)],
    out: [['looking'], ['looking'], ['finding recent-fills']],
  },
  {
    name: 'polling: listed with something executed: its look-up (its trades)',
    settings: POLLED,
    inputs: [READY, view([{ ...OPEN, executed_amount: '4' }], 20)],
    out: [['looking'], ['finding look-up']],
  },
  {
    name: 'polling: not listed: the venue is asked (ended pages, then the look-up)',
    settings: POLLED,
    inputs: [READY, view([OTHER], 20)],
    out: [['looking'], ['finding venue']],
  },
  {
    name: 'polling: ended in the first poll without a fill: done, nothing asked',
    settings: POLLED,
    inputs: [READY, view([], 20, { endings: [ended(final('0', 3))] })],
    out: [['looking'], ['done', 'done canceled filled=0', 'complete']],
  },
  {
    name: 'polling: found by the venue: its fills with those the feed brought meanwhile, each once, in order; then the feed',
    settings: POLLED,
    inputs: [
      fillOf(fill(3, '1')),
      READY,
      view([{ ...OPEN, executed_amount: '2' }], 20),
      fillOf(fill(7, '1')),
      fillOf(fill(8, '1', '26')),
      {
        type: 'found',
        record: { ...OPEN, executed_amount: '3' },
        fills: [fill(5, '1'), fill(3, '1')],
        account: 'demo.trader',
        now: 40,
      },
      fillOf(fill(9, '1')),
    ],
    out: [
      ['starting'],
      ['looking'],
      ['finding look-up'],
      ['finding look-up'],
      ['finding look-up'],
      ['following', 'fill 3', 'fill 5', 'fill 7'],
      ['following', 'fill 9'],
    ],
  },
  {
    name: 'relayed: listed in the relay’s state: followed at once, its earlier fills from the relay’s fills; closed by the list: done, nothing asked',
    settings: RELAYED,
    inputs: [
      fillOf(fill(3, '4')),
      fillOf(fill(4, '1', '26')),
      READY,
      view([{ ...OPEN, executed_amount: '4' }, OTHER], 10, { poll: false }),
      fillOf(fill(6, '6')),
      view([OTHER], 30, { poll: false, endings: [ended(final('10', 2))] }),
    ],
    out: [
      ['starting'],
      ['starting'],
      ['looking'],
      ['following', 'fill 3'],
      ['following', 'fill 6'],
      ['done', 'done filled filled=10', 'complete'],
    ],
  },
  {
    name: 'relayed: listed at the subscription, closed before the fills are ready (another order closed and a tick after): followed from its end at ready, its fills from the relay’s, nothing asked',
    settings: RELAYED,
    inputs: [
      view([OPEN, OTHER], 1, { poll: false }),
      view([OTHER], 2, { poll: false, endings: [ended(final('10', 2))] }),
      view([], 3, { poll: false, endings: [ended({ ...final('0', 3), id: OTHER.id })] }),
      view([], 4),
      fillOf(fill(3, '10')),
      { type: 'ready', now: 5 },
    ],
    out: [
      ['starting'],
      ['starting'],
      ['starting'],
      ['starting'],
      ['starting'],
      ['done', 'fill 3', 'done filled filled=10', 'complete'],
    ],
  },
  {
    name: 'relayed: not shown within showWithinMs: the venue is asked; the relay showing it meanwhile ends the asks',
    settings: RELAYED,
    inputs: [READY, view([OTHER], 500), view([OTHER], 1_000), view([OPEN, OTHER], 1_200)],
    out: [['looking'], ['looking'], ['finding venue'], ['following']],
  },
  {
    name: 'relayed: a change of another order says nothing of this one; ticks while listed ask nothing',
    settings: RELAYED,
    inputs: [
      READY,
      view([OPEN], 10, { poll: false }),
      view([OPEN, { ...OTHER, order_price: '1.05' }], 20, { poll: false }),
      view([OPEN, OTHER], 500),
      view([OPEN, OTHER], 1_000),
    ],
    out: [['looking'], ['following'], ['following'], ['following'], ['following']],
  },
  {
    name: 'a client id without placedAfter: nothing decided before the venue’s clock answers, then the latest poll',
    target: { clientId: 'bot-1', placedAfter: undefined },
    settings: POLLED,
    inputs: [READY, view([OPEN], 20), { type: 'placed-after', at: OPEN.order_time - 60_000 }],
    out: [['starting'], ['starting'], ['finding recent-fills']],
  },
  {
    name: 'a client id: an order of it placed before placedAfter is not taken',
    target: { clientId: 'bot-1', placedAfter: OPEN.order_time + 1_000 },
    settings: RELAYED,
    inputs: [READY, view([OPEN], 10, { poll: false }), view([OPEN], 1_000)],
    out: [['looking'], ['looking'], ['finding venue']],
  },
  {
    name: 'a feed ended (the venue closed): complete, in any phase',
    settings: POLLED,
    inputs: [READY, { type: 'closed' }],
    out: [['looking'], ['done', 'complete']],
  },
]

describe('the order stream’s state machine', () => {
  it.each(CASES)('$name', ({ target = BY_ID, settings, inputs, out }) => {
    expect(run(target, inputs, settings)).toEqual(out)
  })
})
