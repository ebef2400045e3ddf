/**
 * The order reducer as a table: a start and a list of inputs in, the events emitted and
 * the requests asked for out. No I/O, no clock: every time is a number in the input.
 */
import { describe, expect, it } from 'vitest'
import type { Fill, OpenOrder, Order } from '../src/index.js'
import {
  type OrderInput,
  type OrderLifeSettings,
  type OrderStep,
  startOrder,
  stepOrder,
} from '../src/streams/order-life.js'

const SETTINGS: OrderLifeSettings = { lookups: 3, recheckPolls: 2, fillGraceMs: 1_000 }

/**
 * The settings of an order stream on a relay: its list closes every order it listed and its
 * fills feed brings every fill in order.
 */
const RELAYED: OrderLifeSettings = { ...SETTINGS, fullAskPolls: 2, askWhileEnding: false }

/** A working limit buy of 10, order 0-25-0. */
const OPEN: OpenOrder = {
  id: '0-25-0',
  order_id: '25',
  order_cid: 'bot-1',
  pool_id: 0,
  pool_symbol: 'chain.token-CHN-usdt.ext-USDT',
  pool_base_coin: 'chain.token-CHN',
  pool_quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 2,
  quote_coin_precision: 4,
  side: 0,
  type: 1,
  order_price: '1.04',
  order_amount: '10',
  order_total: '10.4',
  avg_price: '0',
  executed_amount: '0',
  order_time: 1_700_000_000_000,
  trader: 'demo.trader',
}

/** The order as the venue keeps it: `executed` filled, with `status` and `history`. */
function record(executed: string, status: number, history: boolean, more: Partial<Order> = {}) {
  return {
    ...OPEN,
    executed_amount: executed,
    filled_total: '0',
    history,
    permission: 'active',
    status,
    unread: false,
    ...more,
  } satisfies Order
}

const FILLED = record('10', 2, true)
const CANCELED_EMPTY = record('0', 3, true)

/** A fill of the order: `global_seq` `seq`, `quantity` at 1.04. */
function fill(seq: number, quantity: string): Fill {
  return {
    globalSeq: String(seq),
    txId: `tx-${seq}`,
    poolId: 0,
    orderId: '25',
    clientId: 'bot-1',
    price: '1.04',
    quantity,
    quoteQuantity: '0',
    fee: '0',
    feeCoin: 'chain.token-CHN',
    role: 'maker',
    side: 'buy',
    timestamp: 1_700_000_000_000 + seq,
  } as Fill
}

/** What one step put out, in a form a table can state. */
function seen(step: OrderStep): string[] {
  const out = step.events.map((event) =>
    event.type === 'fill'
      ? `fill ${event.fill.globalSeq} filled=${event.order.filled}${event.fill.late ? ' late' : ''}`
      : event.type === 'update'
        ? `update price=${event.order.record.order_price}`
        : `done ${event.status} reconciled=${event.reconciled} missing=${event.missing} filled=${event.order.filled}`,
  )
  if (step.ask) out.push('ask')
  if (step.wakeAt !== undefined) out.push(`wake ${step.wakeAt}`)
  if (step.complete) out.push('complete')
  return out
}

/** Runs a start and its inputs; one list of outputs per step, the start first. */
function run(
  start: { record: OpenOrder | Order; fills?: Fill[]; now?: number },
  inputs: OrderInput[],
  settings: OrderLifeSettings = SETTINGS,
): string[][] {
  let step = startOrder(start.record, start.fills ?? [], settings, start.now ?? 0)
  const steps = [seen(step)]
  for (const input of inputs) {
    step = stepOrder(step.life, input, settings)
    steps.push(seen(step))
  }
  return steps
}

const poll = (
  n: number,
  more: Partial<Extract<OrderInput, { type: 'poll' }>> = {},
): OrderInput => ({
  type: 'poll',
  poll: n,
  now: n * 100,
  ...more,
})

interface Case {
  readonly name: string
  readonly start: { record: OpenOrder | Order; fills?: Fill[]; now?: number }
  readonly inputs: OrderInput[]
  readonly out: string[][]
  readonly settings?: OrderLifeSettings
}

const CASES: Case[] = [
  {
    name: 'an ended order whose fills add up: the fills, then done reconciled, complete',
    start: { record: FILLED, fills: [fill(7, '6'), fill(5, '4')] },
    inputs: [],
    out: [
      [
        'fill 5 filled=4',
        'fill 7 filled=10',
        'done filled reconciled=true missing=0 filled=10',
        'complete',
      ],
    ],
  },
  {
    name: 'an order found working in the list: nothing to emit or ask; listed on each poll, still nothing',
    start: { record: OPEN },
    inputs: [poll(1, { open: OPEN }), poll(2, { open: OPEN })],
    out: [[], [], []],
  },
  {
    name: 'fills as they come, duplicates dropped; a fill that makes the amount asks at once',
    start: { record: OPEN },
    inputs: [
      { type: 'fills', fills: [fill(5, '4')] },
      { type: 'fills', fills: [fill(5, '4')] },
      { type: 'fills', fills: [fill(7, '6')] },
      { type: 'answer', record: FILLED, fills: [fill(5, '4'), fill(7, '6')], now: 300 },
    ],
    out: [
      [],
      ['fill 5 filled=4'],
      [],
      ['fill 7 filled=10', 'ask'],
      ['done filled reconciled=true missing=0 filled=10', 'complete'],
    ],
  },
  {
    name: 'the shared poll saw it end: done from the ending it looked up',
    start: { record: OPEN },
    inputs: [poll(1, { end: { status: 'filled', record: FILLED, fills: [fill(5, '10')] } })],
    out: [[], ['fill 5 filled=10', 'done filled reconciled=true missing=0 filled=10', 'complete']],
  },
  {
    name: 'missing from the list: asked at once, then on its own clock every 2 polls (not on every poll)',
    start: { record: OPEN },
    inputs: [
      poll(1),
      { type: 'answer', record: record('0', 0, false), fills: [], now: 120 },
      poll(2),
      poll(3),
      { type: 'answer', record: CANCELED_EMPTY, fills: [], now: 320 },
    ],
    out: [
      [],
      ['ask'],
      [],
      [],
      ['ask'],
      ['done canceled reconciled=true missing=0 filled=0', 'complete'],
    ],
  },
  {
    name: 'the venue stops answering: after `lookups` misses, one per 2 polls, done unknown with the last record',
    start: { record: OPEN },
    inputs: [
      poll(1),
      { type: 'unanswered', now: 110 },
      poll(2),
      poll(3),
      { type: 'unanswered', now: 310 },
      poll(4),
      poll(5),
      { type: 'unanswered', now: 510 },
    ],
    out: [
      [],
      ['ask'],
      [],
      [],
      ['ask'],
      [],
      [],
      ['ask'],
      ['done unknown reconciled=true missing=0 filled=0', 'complete'],
    ],
  },
  {
    name: 'a miss, then listed again: the misses start over',
    start: { record: OPEN },
    inputs: [
      poll(1),
      { type: 'unanswered', now: 110 },
      poll(2, { open: OPEN }),
      poll(3),
      { type: 'unanswered', now: 310 },
      poll(4),
      poll(5),
      { type: 'unanswered', now: 510 },
    ],
    out: [[], ['ask'], [], [], ['ask'], [], [], ['ask'], []],
  },
  {
    name: 'the shared poll gave up on it: done unknown',
    start: { record: OPEN },
    inputs: [poll(1, { end: { status: 'unknown', record: OPEN, fills: [] } })],
    out: [[], ['done unknown reconciled=true missing=0 filled=0', 'complete']],
  },
  {
    name: 'ended before its trades show: no done until the fills add up (a re-look every 2 polls meanwhile)',
    start: { record: FILLED, now: 0 },
    inputs: [
      poll(1),
      poll(2),
      { type: 'answer', record: FILLED, fills: [fill(5, '4')], now: 250 },
      poll(3),
      poll(4),
      { type: 'fills', fills: [fill(7, '6')] },
    ],
    out: [
      ['wake 1000'],
      [],
      ['ask'],
      ['fill 5 filled=4'],
      [],
      ['ask'],
      ['fill 7 filled=10', 'done filled reconciled=true missing=0 filled=10', 'complete'],
    ],
  },
  {
    name: 'fills that never show within the grace: done at the deadline, unreconciled, with the amount missing',
    start: { record: FILLED, fills: [fill(5, '4')], now: 0 },
    inputs: [
      { type: 'time', now: 999 },
      { type: 'time', now: 1_000 },
    ],
    out: [
      ['fill 5 filled=4', 'wake 1000'],
      [],
      ['done filled reconciled=false missing=6 filled=4', 'complete'],
    ],
  },
  {
    name: 'a grace of 0: done at once, unreconciled',
    start: { record: FILLED },
    inputs: [],
    settings: { ...SETTINGS, fillGraceMs: 0 },
    out: [['done filled reconciled=false missing=10 filled=0', 'complete']],
  },
  {
    name: 'an update for a change its fills do not explain (a new price), none for a fill',
    start: { record: OPEN },
    inputs: [
      poll(1, { open: { ...OPEN, executed_amount: '4', avg_price: '1.04' } }),
      poll(2, { open: { ...OPEN, executed_amount: '4', order_price: '1.05' } }),
    ],
    out: [[], [], ['update price=1.05']],
  },
  {
    name: 'inputs after done change nothing',
    start: { record: CANCELED_EMPTY },
    inputs: [poll(1), { type: 'fills', fills: [fill(5, '1')] }, { type: 'time', now: 5_000 }],
    out: [['done canceled reconciled=true missing=0 filled=0', 'complete'], [], [], []],
  },
  {
    name: 'a batch of fills out of order is emitted ascending',
    start: { record: OPEN },
    inputs: [{ type: 'fills', fills: [fill(9, '1'), fill(3, '1'), fill(6, '1')] }],
    out: [[], ['fill 3 filled=1', 'fill 6 filled=2', 'fill 9 filled=3']],
  },
  {
    name: 'a fill shown after a later one of the order: emitted when it shows, marked late (it alone)',
    start: { record: OPEN },
    inputs: [
      { type: 'fills', fills: [fill(5, '1')] },
      { type: 'fills', fills: [fill(9, '1')] },
      { type: 'fills', fills: [fill(11, '1'), fill(7, '1')] },
      { type: 'answer', record: record('4', 1, false), fills: [fill(6, '1')], now: 100 },
      { type: 'fills', fills: [fill(12, '1')] },
    ],
    out: [
      [],
      ['fill 5 filled=1'],
      ['fill 9 filled=2'],
      ['fill 7 filled=3 late', 'fill 11 filled=4'],
      ['fill 6 filled=5 late'],
      ['fill 12 filled=6'],
    ],
  },
  {
    name: 'a late mark of the account’s fills feed is not kept when the order’s own fills are in order',
    start: { record: OPEN },
    inputs: [{ type: 'fills', fills: [fill(5, '1'), { ...fill(8, '1'), late: true }] }],
    out: [[], ['fill 5 filled=1', 'fill 8 filled=2']],
  },
  {
    name: 'relayed: fills that make the amount while listed wait for the list to close it; no ask when it does',
    start: { record: OPEN },
    settings: RELAYED,
    inputs: [
      poll(1, { open: OPEN }),
      { type: 'fills', fills: [fill(5, '10')] },
      poll(2, { open: OPEN }),
      poll(2, { end: { status: 'filled', record: FILLED, fills: [] } }),
    ],
    out: [
      [],
      [],
      ['fill 5 filled=10'],
      [],
      ['done filled reconciled=true missing=0 filled=10', 'complete'],
    ],
  },
  {
    name: 'relayed: still listed `fullAskPolls` polls after its fills made the amount, it is asked for',
    start: { record: OPEN },
    settings: RELAYED,
    inputs: [
      poll(1, { open: OPEN }),
      { type: 'fills', fills: [fill(5, '10')] },
      poll(2, { open: OPEN }),
      poll(3, { open: OPEN }),
      poll(4, { open: OPEN }),
    ],
    out: [[], [], ['fill 5 filled=10'], [], ['ask'], []],
  },
  {
    name: 'relayed: an end that waits for its fills asks nothing; the fills feed brings them',
    start: { record: OPEN },
    settings: RELAYED,
    inputs: [
      poll(1, { end: { status: 'filled', record: FILLED, fills: [] } }),
      poll(2),
      poll(3),
      poll(4),
      { type: 'fills', fills: [fill(5, '10')] },
    ],
    out: [
      [],
      ['wake 1100'],
      [],
      [],
      [],
      ['fill 5 filled=10', 'done filled reconciled=true missing=0 filled=10', 'complete'],
    ],
  },
  {
    name: 'relayed: a working order the list does not show is still asked for, on its own clock',
    start: { record: OPEN },
    settings: RELAYED,
    inputs: [poll(1), poll(2), { type: 'unanswered', now: 210 }, poll(3)],
    out: [[], ['ask'], [], [], ['ask']],
  },
]

describe('the order reducer', () => {
  it.each(CASES)('$name', ({ start, inputs, out, settings }) => {
    expect(run(start, inputs, settings)).toEqual(out)
  })

  it('progress is exact: filled, remaining (never below 0) and the average price at 18 decimals', () => {
    let step = startOrder(OPEN, [], SETTINGS, 0)
    step = stepOrder(
      step.life,
      { type: 'fills', fills: [{ ...fill(1, '3'), price: '1' }] },
      SETTINGS,
    )
    step = stepOrder(
      step.life,
      { type: 'fills', fills: [{ ...fill(2, '9'), price: '2' }] },
      SETTINGS,
    )
    const last = step.events.at(-1)
    expect(last?.order).toMatchObject({
      filled: '12',
      remaining: '0',
      avgPrice: '1.75',
    })
  })

  it('never changes the state it is given (a pure function)', () => {
    const first = startOrder(OPEN, [], SETTINGS, 0)
    const frozen = JSON.stringify({ ...first.life, seqs: [...first.life.seqs] })
    stepOrder(first.life, { type: 'fills', fills: [fill(5, '4')] }, SETTINGS)
    stepOrder(first.life, poll(1), SETTINGS)
    expect(JSON.stringify({ ...first.life, seqs: [...first.life.seqs] })).toBe(frozen)
  })
})
