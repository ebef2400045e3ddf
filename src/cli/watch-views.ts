import type { Observable } from 'rxjs'
import { applyBookEvent } from '../book/apply-book-event.js'
import type { BookEvent } from '../book/book-event.js'
import type { OrderBook } from '../book/order-book.js'
import type { KlineInterval } from '../schemas/kline.js'
import type { TradeDetail } from '../schemas/trade-detail.js'
import type { Transfer } from '../schemas/transfer.js'
import type { Fill } from '../streams/fills.js'
import type { BalancesUpdate } from '../streams/watch-balances.js'
import type { KlineEvent } from '../streams/watch-klines.js'
import type { OrderEvent } from '../streams/watch-order.js'
import type { PublicTradeEvent } from '../streams/watch-trades.js'
import type { Venue } from '../venue.js'
import { clock, coinSymbol, table } from './render.js'
import type { painter } from './style.js'

/** What `venue-rx watch` can follow. */
export const WATCH_KINDS = [
  'book',
  'trades',
  'my-trades',
  'transfers',
  'fills',
  'order',
  'klines',
  'balances',
] as const
export type WatchKind = (typeof WATCH_KINDS)[number]

/** The streams that read the account (they need `VENUE_API_KEY`). */
export const ACCOUNT_KINDS: ReadonlySet<WatchKind> = new Set([
  'my-trades',
  'transfers',
  'fills',
  'order',
  'balances',
])

/** The streams whose pool is checked (and defaults to 0). */
export const POOL_KINDS: ReadonlySet<WatchKind> = new Set(['book', 'trades', 'klines'])

export interface WatchArgs {
  readonly poolId: number | undefined
  readonly limit: number
  readonly interval: KlineInterval
  readonly orderId: string | undefined
}

type Paint = ReturnType<typeof painter>

/**
 * One stream's events and how each is shown: `json` is the event as NDJSON (the
 * library's values untouched: decimals stay exact strings), `text` the readable lines.
 */
export interface WatchView<T> {
  readonly events: Observable<T>
  readonly json: (event: T) => unknown
  /** Lines printed once before the first event (a table header). */
  readonly header: readonly string[]
  readonly text: (event: T, paint: Paint) => string[]
}

const tradeColumns = [
  ['time', 12],
  ['side', 4],
  ['price', 14, 'right'],
  ['quantity', 16, 'right'],
] as const

/** A table row without its header (the header is printed once). */
const row = (columns: Parameters<typeof table>[0], values: string[]) =>
  table(columns, [values]).slice(1)

const sideColour = (side: string, paint: Paint, text: string) =>
  paint(side === 'buy' || side === 'bid' ? 'green' : 'red', text)

function bookView(venue: Venue, poolId: number, limit: number): WatchView<BookEvent> {
  let book: OrderBook | undefined
  return {
    events: venue.watchDepth(poolId, { limit }),
    json: (event) => event,
    header: [],
    text: (event, paint) => {
      book = applyBookEvent(book, event)
      const changed = event.bids.length + event.asks.length
      const title =
        event.type === 'snapshot'
          ? `book pool ${poolId} #${event.seq} snapshot (${event.reason})`
          : `book pool ${poolId} #${event.seq} delta (${changed} level${changed === 1 ? '' : 's'} changed)`
      const shown = Math.min(limit, 5)
      const asks = [...book.top('asks', shown)].reverse()
      const bids = book.top('bids', shown)
      const lines = table(
        [
          ['side', 4],
          ['price', 14, 'right'],
          ['quantity', 16, 'right'],
        ],
        [
          ...asks.map(([price, qty]) => ['ask', price, qty]),
          ...bids.map(([price, qty]) => ['bid', price, qty]),
        ],
      )
      const [head = '', ...rest] = lines
      const coloured = rest.map((line) => sideColour(line.slice(0, 3), paint, line))
      return [
        paint('bold', `${title}  ${clock(event.timestamp)}  spread ${book.spread ?? '-'}`),
        head,
        ...coloured,
        '',
      ]
    },
  }
}

function tradesView(venue: Venue, poolId: number): WatchView<PublicTradeEvent> {
  return {
    events: venue.watchTrades(poolId),
    json: (event) => event,
    header: table(tradeColumns, []),
    text: (event, paint) => {
      if (event.type === 'gap') {
        return [
          paint(
            'yellow',
            `-- gap: trades between ${clock(event.since)} and ${clock(event.until)} may be missing`,
          ),
        ]
      }
      const t = event.trade
      const line = row(tradeColumns, [clock(t.traded_at), t.side, t.price, t.quantity])
      return line.map((l) => sideColour(t.side, paint, l))
    },
  }
}

const myTradeColumns = [
  ['global_seq', 10, 'right'],
  ['time', 12],
  ['pool', 4, 'right'],
  ['taker', 5],
  ['price', 14, 'right'],
  ['base qty', 16, 'right'],
  ['quote qty', 16, 'right'],
] as const

function myTradesView(venue: Venue, poolId: number | undefined): WatchView<TradeDetail> {
  return {
    events: venue.watchMyTrades(poolId === undefined ? {} : { poolId }),
    json: (t) => t,
    header: table(myTradeColumns, []),
    text: (t) =>
      row(myTradeColumns, [
        t.global_seq,
        clock(t.timestamp),
        String(t.pool_id),
        t.taker_is_bid ? 'buy' : 'sell',
        t.price,
        t.base_quantity,
        t.quote_quantity,
      ]),
  }
}

const transferColumns = [
  ['sid', 8, 'right'],
  ['time', 12],
  ['side', 10],
  ['symbol', 8],
  ['amount', 20, 'right'],
] as const

function transfersView(venue: Venue): WatchView<Transfer> {
  return {
    events: venue.watchTransfers(),
    json: (t) => t,
    header: table(transferColumns, []),
    text: (t) => row(transferColumns, [t.sid, clock(t.created_at), t.side, t.symbol, t.amount]),
  }
}

const fillColumns = [
  ['global_seq', 10, 'right'],
  ['time', 12],
  ['pool', 4, 'right'],
  // The id `venue-rx watch order` takes: {pool}-{order}-{side}, side 0 buy, 1 sell.
  ['order', 14],
  ['role', 5],
  ['side', 4],
  ['price', 14, 'right'],
  ['quantity', 16, 'right'],
  ['fee', 14, 'right'],
] as const

const fillRow = (f: Fill) =>
  row(fillColumns, [
    f.globalSeq,
    clock(f.timestamp),
    String(f.poolId),
    `${f.poolId}-${f.orderId}-${f.side === 'buy' ? 0 : 1}`,
    f.role,
    f.side,
    f.price,
    f.quantity,
    f.fee,
  ])

function fillsView(venue: Venue, poolId: number | undefined): WatchView<Fill> {
  return {
    events: venue.watchFills(poolId === undefined ? {} : { poolId }),
    json: (f) => f,
    header: table(fillColumns, []),
    text: (f, paint) => fillRow(f).map((l) => sideColour(f.side, paint, l)),
  }
}

function orderView(venue: Venue, orderId: string): WatchView<OrderEvent> {
  return {
    events: venue.watchOrder(orderId),
    json: (e) => e,
    header: [],
    text: (e, paint) => {
      const o = e.order
      const state = `filled ${o.filled}, remaining ${o.remaining}, avg ${o.avgPrice}`
      if (e.type === 'fill') {
        return [
          `fill  ${o.id}  ${e.fill.side} ${e.fill.quantity} @ ${e.fill.price} (${e.fill.role}, fee ${e.fill.fee}); ${state}`,
        ]
      }
      if (e.type === 'update') return [`update ${o.id}  ${state}`]
      return [paint('bold', `done  ${o.id}  ${e.status}; ${state}`)]
    },
  }
}

const klineColumns = [
  ['start', 16],
  ['state', 6],
  ['open', 12, 'right'],
  ['high', 12, 'right'],
  ['low', 12, 'right'],
  ['close', 12, 'right'],
  ['volume', 16, 'right'],
  ['trades', 6, 'right'],
] as const

function klinesView(venue: Venue, poolId: number, interval: KlineInterval): WatchView<KlineEvent> {
  return {
    events: venue.watchKlines(poolId, interval),
    json: (e) => e,
    header: table(klineColumns, []),
    text: ({ type, candle: c }) =>
      row(klineColumns, [
        new Date(c.timestamp).toISOString().slice(0, 16).replace('T', ' '),
        type,
        c.open,
        c.high,
        c.low,
        c.close,
        c.volume,
        String(c.count),
      ]),
  }
}

function balancesView(venue: Venue): WatchView<BalancesUpdate> {
  return {
    events: venue.watchBalances(),
    // `byCoin` is a Map (no JSON form); `balances` holds the same values.
    json: ({ balances, changes }) => ({ balances, changes }),
    header: [],
    text: ({ changes }) =>
      changes.map((c) => {
        const coin = coinSymbol(c.coin).padEnd(6)
        if (c.type === 'removed') return `removed  ${coin}`
        const was = c.type === 'changed' ? `  (was ${c.previous.balance})` : ''
        return `${c.type.padEnd(7)}  ${coin} ${c.current.balance.padStart(22)}  locked ${c.current.locked}${was}`
      }),
  }
}

/** A view whose event type is left open: `json` and `text` get what `events` emitted. */
const erase = <T>(view: WatchView<T>) => view as unknown as WatchView<unknown>

/** The view of `kind` on `venue` (arguments already checked). */
export function watchView(venue: Venue, kind: WatchKind, args: WatchArgs): WatchView<unknown> {
  const pool = args.poolId ?? 0
  switch (kind) {
    case 'book':
      return erase(bookView(venue, pool, args.limit))
    case 'trades':
      return erase(tradesView(venue, pool))
    case 'my-trades':
      return erase(myTradesView(venue, args.poolId))
    case 'transfers':
      return erase(transfersView(venue))
    case 'fills':
      return erase(fillsView(venue, args.poolId))
    case 'order':
      return erase(orderView(venue, args.orderId ?? ''))
    case 'klines':
      return erase(klinesView(venue, pool, args.interval))
    case 'balances':
      return erase(balancesView(venue))
  }
}
