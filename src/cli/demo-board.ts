/**
 * What `venue-rx demo` shows, kept apart from where it comes from: a board that the
 * streams update and that renders a frame (terminal) or one line per event (pipes).
 */
import { stripVTControlCharacters } from 'node:util'
import type {
  BookEvent,
  Fill,
  FreshnessReport,
  HealthReport,
  OrderBook,
  OrderEvent,
  PublicTrade,
} from '../index.js'
import type { BalancesUpdate } from '../streams/watch-balances.js'
import { type Placement, placementWords } from './demo-strategy.js'
import { clock, coinSymbol, sideBySide, table, visibleWidth, wrapEntries } from './render.js'
import { sparkline } from './sparkline.js'
import type { painter } from './style.js'

type Paint = ReturnType<typeof painter>

/** How much of each panel a frame shows: levels a side, lines of the other panels. */
interface PanelSizes {
  readonly depth: number
  readonly tape: number
  readonly orders: number
  readonly fills: number
  /** No blank lines between most panels, the latest fill as one line, Ctrl-C on its title. */
  readonly tight: boolean
}
/** A tall terminal (about 44 rows) shows all of this... */
const FULL: PanelSizes = { depth: 6, tape: 10, orders: 7, fills: 5, tight: false }
/** ...a smaller one (about 33 rows) this... */
const COMPACT: PanelSizes = { depth: 3, tape: 4, orders: 4, fills: 2, tight: false }
/** ...and 80x24 this: 23 lines (log-update keeps the cursor on the line below). */
const SMALL: PanelSizes = { depth: 2, tape: 4, orders: 5, fills: 1, tight: true }
/** What the board keeps: the full sizes. */
const TAPE_LINES = FULL.tape
const ORDER_LINES = FULL.orders
const FILL_LINES = FULL.fills
/** Mid prices kept for the sparkline. */
const MID_HISTORY = 40

/** The market signals the demo computes with `venue-rx/signals`. */
export interface DemoSignals {
  spreadBps?: string
  microprice?: string
  imbalance?: string
  vwap?: string
  flow?: string
  cross?: { readonly type: string; readonly at: number }
}

/** One line of the order panel. */
interface OrderLine {
  readonly at: number
  readonly id: string
  /** The few words the order panel shows. */
  readonly text: string
  readonly tone: 'plain' | 'good' | 'bad'
}

/** The demo's picture of the venue, updated by the streams. */
export class DemoBoard {
  book: OrderBook | undefined
  lastBookEvent: BookEvent | undefined
  readonly trades: PublicTrade[] = []
  tradeGaps = 0
  readonly mids: number[] = []
  signals: DemoSignals = {}
  readonly orders: OrderLine[] = []
  readonly fills: Fill[] = []
  fillCount = 0
  balances: BalancesUpdate | undefined
  health: HealthReport = {}
  /** `venue.freshness`: each polled stream's polls a second and estimated staleness. */
  freshness: FreshnessReport = {}
  requestsPerSecond = 0
  /** A fault the simulator is injecting now, shown in the header. */
  fault: string | undefined
  /** What the header names after `venue-rx demo`: the simulator and the pool. */
  title: string
  /**
   * The venue's request budget, once known: a token bucket refilled at `perSecond` and
   * holding `burst` tokens, so up to `perSecond + burst` requests may go out within one
   * second. Until then the header shows `-` for it.
   */
  budget: { readonly perSecond: number; readonly burst: number } | undefined

  /** A board with nothing yet: each panel says what it waits for. */
  constructor(title: string, budgetPerSecond?: number, burst?: number) {
    this.title = title
    this.budget =
      budgetPerSecond === undefined ? undefined : { perSecond: budgetPerSecond, burst: burst ?? 0 }
  }

  /** A book event and the book it produced. */
  onBook(event: BookEvent, book: OrderBook): string {
    this.lastBookEvent = event
    this.book = book
    const mid = book.mid
    if (mid !== undefined) {
      this.mids.push(Number(mid))
      if (this.mids.length > MID_HISTORY) this.mids.shift()
    }
    const best = `best ${book.bestBid?.[0] ?? '-'} / ${book.bestAsk?.[0] ?? '-'}`
    return event.type === 'snapshot'
      ? `book   seq ${event.seq} snapshot (${event.reason}): ${book.bids.length} bids, ${book.asks.length} asks, ${best}`
      : `book   seq ${event.seq} delta: ${event.bids.length} bid and ${event.asks.length} ask levels changed, ${best}`
  }

  onTrade(trade: PublicTrade): string {
    this.trades.unshift(trade)
    if (this.trades.length > TAPE_LINES) this.trades.pop()
    return `trade  ${clock(trade.traded_at)} ${trade.side.padEnd(4)} ${trade.quantity} @ ${trade.price}`
  }

  onTradeGap(since: number, until: number): string {
    this.tradeGaps += 1
    return `trade  gap: trades between ${clock(since)} and ${clock(until)} may be missing`
  }

  /** The demo strategy placed an order. */
  onPlaced(at: number, id: string, placement: Placement): string {
    const words = placementWords(placement)
    const order = `${placement.side} ${placement.amount} @ ${placement.price}`
    const tone = placement.record?.status === 4 ? 'bad' : 'plain'
    this.#order({ at, id, text: `${order} ${words.short}`, tone })
    return `order  ${id} placed ${order} (${words.long})`
  }

  /** The demo strategy could not place or cancel an order. */
  onStrategyError(at: number, text: string): string {
    this.#order({ at, id: '-', text, tone: 'bad' })
    return `order  ${text}`
  }

  onOrderEvent(at: number, event: OrderEvent): string {
    const { order } = event
    const avg = order.filled === '0' ? '' : ` avg ${order.avgPrice}`
    const [text, short] =
      event.type === 'fill'
        ? [
            `fill ${event.fill.quantity} @ ${event.fill.price} ${event.fill.role} (${order.filled} done)`,
            `fill ${event.fill.quantity} @ ${event.fill.price} ${event.fill.role}`,
          ]
        : event.type === 'done'
          ? [`${event.status}: ${order.filled}${avg}`, `${event.status} ${order.filled}${avg}`]
          : [`update, filled ${order.filled}`, `update, filled ${order.filled}`]
    const tone = event.type === 'done' ? (event.status === 'filled' ? 'good' : 'bad') : 'plain'
    this.#order({ at, id: order.id, text: short, tone })
    return `order  ${order.id} ${text}`
  }

  onFill(fill: Fill): string {
    this.fillCount += 1
    this.fills.unshift(fill)
    if (this.fills.length > FILL_LINES) this.fills.pop()
    return `fill   ${fillLine(fill)}`
  }

  onBalances(update: BalancesUpdate): string[] {
    this.balances = update
    return update.changes.map((change) =>
      change.type === 'removed'
        ? `balance ${coinSymbol(change.coin)} removed`
        : `balance ${coinSymbol(change.coin)} ${change.current.balance} (locked ${change.current.locked})`,
    )
  }

  onHealth(report: HealthReport): string[] {
    const before = this.health
    this.health = report
    return Object.entries(report)
      .filter(([key, health]) => before[key]?.state !== health.state)
      .map(([key, health]) => `health ${key}: ${describeHealth(health)}`)
  }

  /** The one-line summary printed once a second in plain mode. */
  summary(): string {
    const s = this.signals
    return [
      `status requests ${this.requestsPerSecond}/s (${this.#budget()})`,
      `spread ${s.spreadBps ?? '-'} bps`,
      `microprice ${s.microprice ?? '-'}`,
      `imbalance ${s.imbalance ?? '-'}`,
      `vwap ${s.vwap ?? '-'}`,
      `flow ${s.flow ?? '-'}`,
      `streams ${healthCounts(this.health)}`,
      `polls ${this.#pollRates()}`,
    ].join(', ')
  }

  /** `watchDepth 4.1/s ~95 ms; watchTrades 3.0/s ~170 ms`: each polled stream's pace. */
  #pollRates(): string {
    const entries = Object.entries(this.freshness)
    if (entries.length === 0) return 'none yet'
    return entries.map(([key, pace]) => `${shortKey(key)} ${pacedAs(pace, false)}`).join('; ')
  }

  /**
   * The whole screen for a terminal of `width` columns and `height` rows, in at most
   * `height - 1` lines: log-update leaves the cursor on the line below the frame, so a
   * frame of every row would scroll its title away. Every panel in full when they fit,
   * shorter panels when not (80x24 shows them all), and on a smaller terminal the lines
   * that fit with a note.
   */
  frame(paint: Paint, width: number, now: number, height = Number.POSITIVE_INFINITY): string[] {
    const lines = height - 1
    // A line wider than the terminal would wrap and push the frame down: cut it (its
    // colours go with it, which only a terminal under 80 columns sees).
    // A line break inside a line (an error's message, say) would make the frame taller than
    // counted, and log-update would cut its top line, the title: each is a line of its own.
    const clipped = (frame: string[]) =>
      frame
        .flatMap((line) => line.split(/\r?\n|\r/))
        .map((line) =>
          visibleWidth(line) <= width ? line : stripVTControlCharacters(line).slice(0, width),
        )
    let frame: string[] = []
    for (const size of [FULL, COMPACT, SMALL]) {
      frame = clipped(this.#frame(paint, width, now, size))
      if (frame.length <= lines) return frame
    }
    return [
      ...frame.slice(0, Math.max(1, lines - 1)),
      paint('yellow', `(${frame.length + 1} rows show every panel; this terminal has ${height})`),
    ]
  }

  #frame(paint: Paint, width: number, now: number, size: PanelSizes): string[] {
    const blank = size.tight ? [] : ['']
    const balances = this.#balancePanel(paint)
    // The balances take what their numbers need; the other column gets the rest.
    const balanceWidth = Math.max(...balances.map(visibleWidth))
    const orderColumn = Math.max(38, Math.min(64, width - balanceWidth - 2))
    const column = Math.max(38, Math.min(64, Math.floor((width - 2) / 2)))
    const head = (title: string, source: string) =>
      `${paint('bold', title)} ${paint('dim', source)}`
    const limit = this.budget
    const requests =
      limit === undefined
        ? `requests ${paint('dim', '- (no venue yet)')}`
        : `requests ${paint(
            this.requestsPerSecond > limit.perSecond ? 'yellow' : 'green',
            gauge(this.requestsPerSecond, limit.perSecond, limit.burst, 10),
          )} ${this.requestsPerSecond}/s: ${this.#budget()}`
    const fillsTitle = head('FILLS', `watchFills, ${this.fillCount} so far`)
    const stop = paint('dim', 'Ctrl-C to stop')
    return [
      `${paint('bold', 'venue-rx demo')}  ${this.title}  ${paint('dim', clock(now).slice(0, 8))}`,
      requests,
      `streams ${healthCounts(this.health)}${this.fault === undefined ? '' : `   ${paint('yellow', `fault: ${this.fault}`)}`}`,
      ...blank,
      ...sideBySide(
        [head('ORDER BOOK', this.#bookSource()), ...this.#ladder(paint, column, size.depth)],
        [head('TRADES', 'watchTrades'), ...this.#tape(paint, column, size.tape)],
        column,
      ),
      ...blank,
      ...this.#signalLines(paint, width),
      '',
      ...sideBySide(
        [
          head('DEMO STRATEGY', 'placeOrder + watchOrder'),
          ...this.#orderPanel(paint, orderColumn, size.orders),
        ],
        [head('BALANCES', 'watchBalances'), ...balances],
        orderColumn,
      ),
      ...blank,
      size.tight
        ? `${fillsTitle}${' '.repeat(Math.max(2, width - visibleWidth(fillsTitle) - 14))}${stop}`
        : fillsTitle,
      ...this.#fillPanel(paint, size.fills),
      ...blank,
      // The paces take a row more: not on the tightest layout (80x24).
      ...this.#healthLines(paint, width, !size.tight),
      ...(size.tight ? [] : [stop]),
    ]
  }

  /** `budget 10/s + bursts of 10`, or `budget -` while it is not known. */
  #budget(): string {
    const limit = this.budget
    return limit === undefined
      ? 'budget -'
      : `budget ${limit.perSecond}/s + bursts of ${limit.burst}`
  }

  #bookSource(): string {
    const event = this.lastBookEvent
    if (event === undefined) return 'watchDepth'
    return `watchDepth seq ${event.seq} ${event.type === 'delta' ? `delta, * = changed` : event.type}`
  }

  #ladder(paint: Paint, width: number, depth: number): string[] {
    const book = this.book
    if (book === undefined) return [paint('dim', 'waiting for the first snapshot...')]
    const asks = [...book.top('asks', depth)].reverse()
    const bids = book.top('bids', depth)
    // The levels the last delta named (changed, added or removed) are marked.
    const event = this.lastBookEvent
    const row = (side: 'bids' | 'asks', [price, qty]: readonly [string, string]) => {
      const marked = event?.type === 'delta' && event[side].some(([p]) => p === price)
      const text = `${marked ? '*' : ' '} ${side === 'asks' ? 'ask' : 'bid'} ${price.padStart(12)} ${qty.padStart(16)}`
      const cut = text.length > width ? text.slice(0, width) : text
      const colour = side === 'asks' ? 'red' : 'green'
      return marked ? paint('inverse', paint(colour, cut)) : paint(colour, cut)
    }
    const spread = book.spread
    return [
      ...asks.map((level) => row('asks', level)),
      paint('dim', `  spread ${spread ?? '-'}  mid ${book.mid ?? '-'}`),
      ...bids.map((level) => row('bids', level)),
    ]
  }

  #tape(paint: Paint, width: number, lines: number): string[] {
    if (this.trades.length === 0) return [paint('dim', 'no trade yet')]
    // A narrow column drops the milliseconds, so that quantities show whole.
    const time = width >= 44 ? 12 : 8
    return table(
      [
        ['time', time],
        ['side', 4],
        ['price', 10, 'right'],
        ['quantity', Math.min(14, Math.max(6, width - time - 21)), 'right'],
      ],
      this.trades
        .slice(0, lines)
        .map((t) => [clock(t.traded_at).slice(0, time), t.side, t.price, t.quantity]),
    ).map((line, i) => {
      if (i === 0) return paint('dim', line)
      return paint(this.trades[i - 1]?.side === 'buy' ? 'green' : 'red', line)
    })
  }

  #signalLines(paint: Paint, width: number): string[] {
    const s = this.signals
    const value = (v: string | undefined) => paint('cyan', v ?? '-')
    const cross =
      s.cross === undefined ? '-' : `${s.cross.type} at ${clock(s.cross.at).slice(0, 8)}`
    const first = `${paint('bold', 'MID')} ${value(this.book?.mid)} ${paint('cyan', sparkline(this.mids))}`
    const second = [
      `${paint('bold', 'SIGNALS')} spread ${value(s.spreadBps)} bps`,
      `microprice ${value(s.microprice)}`,
      `imbalance(5) ${value(s.imbalance)}`,
    ].join('  ')
    const third = [
      `        vwap 30s ${value(s.vwap)}`,
      `flow 30s ${value(s.flow)}`,
      `ema 5/20 ${paint('cyan', cross)}`,
    ].join('  ')
    return [first, second, third].map((line) => line.slice(0, width * 4))
  }

  #orderPanel(paint: Paint, width: number, lines: number): string[] {
    if (this.orders.length === 0) return [paint('dim', 'placing the first order...')]
    // The time goes first when the column is narrow: the order's words matter more.
    const timed = width >= 52
    return this.orders.slice(0, lines).map((line) => {
      const text = `${timed ? `${clock(line.at).slice(0, 8)} ` : ''}${line.id} ${line.text}`
      const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text
      return line.tone === 'good'
        ? paint('green', cut)
        : line.tone === 'bad'
          ? paint('yellow', cut)
          : cut
    })
  }

  #balancePanel(paint: Paint): string[] {
    const update = this.balances
    if (update === undefined) return [paint('dim', 'waiting...')]
    const changed = new Set(update.changes.map((c) => c.coin))
    const values = update.balances.map((b) => [coinSymbol(b.coin), b.balance, b.locked])
    // Each column as wide as its widest value: a cut number would be a wrong number.
    const widest = (i: number, title: string) =>
      Math.max(title.length, ...values.map((v) => v[i]?.length ?? 0))
    const rows = table(
      [
        ['coin', widest(0, 'coin')],
        ['balance', widest(1, 'balance'), 'right'],
        ['locked', widest(2, 'locked'), 'right'],
      ],
      values,
    )
    return rows.map((line, i) => {
      if (i === 0) return paint('dim', line)
      const coin = update.balances[i - 1]?.coin
      return coin !== undefined &&
        changed.has(coin) &&
        update.changes.length < update.balances.length
        ? paint('yellow', line)
        : line
    })
  }

  #fillPanel(paint: Paint, lines: number): string[] {
    if (this.fills.length === 0) return [paint('dim', 'no fill yet')]
    // One line: the latest fill in words, no table header.
    if (lines === 1 && this.fills[0] !== undefined) return [fillLine(this.fills[0])]
    return table(
      [
        ['time', 8],
        ['pool', 4, 'right'],
        ['order', 8],
        ['side', 4],
        ['role', 5],
        ['price', 10, 'right'],
        ['quantity', 12, 'right'],
        ['fee', 12, 'right'],
      ],
      this.fills
        .slice(0, lines)
        .map((f) => [
          clock(f.timestamp).slice(0, 8),
          String(f.poolId),
          f.orderId,
          f.side,
          f.role,
          f.price,
          f.quantity,
          f.fee,
        ]),
    ).map((line, i) => (i === 0 ? paint('dim', line) : line))
  }

  /**
   * `HEALTH venue.health` and every stream's state, `withPace` its pace too (polls a second
   * and estimated staleness, from `venue.freshness`), wrapped to `width` by whole entries.
   */
  #healthLines(paint: Paint, width: number, withPace: boolean): string[] {
    const title = `${paint('bold', 'HEALTH')} ${paint('dim', 'venue.health')}`
    const entries = Object.entries(this.health)
    if (entries.length === 0) return [`${title} ${paint('dim', 'no stream yet')}`]
    return wrapEntries(
      title,
      entries.map(([key, health]) => {
        const colour =
          health.state === 'ok' ? 'green' : health.state === 'failed' ? 'red' : 'yellow'
        const state = health.state === 'retrying' ? `retrying #${health.attempt}` : health.state
        const pace = withPace ? this.freshness[key] : undefined
        const paced = pace === undefined ? '' : ` ${paint('dim', pacedAs(pace, true))}`
        return `${shortKey(key)} ${paint(colour, state)}${paced}`
      }),
      width,
    )
  }

  #order(line: OrderLine): void {
    this.orders.unshift(line)
    if (this.orders.length > ORDER_LINES) this.orders.pop()
  }
}

/**
 * The text of one live frame for log-update, in a terminal of `rows` rows: `frame` padded
 * to `rows - 1` lines (every frame as tall as the terminal allows: log-update patches a
 * frame that shrank by the lines it shares with the last one, wherever they moved), with
 * each empty line a single space. log-update leaves its cursor one row too high after a
 * patch whose last changed line is empty, and its next patch then writes one row too high,
 * over the title.
 *
 * @example
 * ```ts
 * liveScreen(['title', '', 'body'], 6) // 'title\n \nbody\n \n '
 * ```
 */
export function liveScreen(frame: readonly string[], rows: number): string {
  const lines = frame.map((line) => (line === '' ? ' ' : line))
  while (lines.length < rows - 1) lines.push(' ')
  return lines.join('\n')
}

/**
 * `[██████████|██········]`: `used` requests of the last second against a budget of `rate`
 * a second (the `cells` before the bar) and its burst of `burst` more (the cells after).
 */
export function gauge(used: number, rate: number, burst: number, cells: number): string {
  const perCell = rate / cells
  const burstCells = Math.max(1, Math.min(cells, Math.round(burst / perCell)))
  const filled = Math.max(0, Math.min(cells + burstCells, Math.round(used / perCell)))
  const run = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => (from + i < filled ? '█' : '·')).join('')
  return `[${run(0, cells)}|${run(cells, burstCells)}]`
}

/** One fill in words: `16:15:26.000 buy 0.0200 @ 1.0445 maker, fee 0.0001 (order 42)`. */
function fillLine(fill: Fill): string {
  return `${clock(fill.timestamp)} ${fill.side} ${fill.quantity} @ ${fill.price} ${fill.role}, fee ${fill.fee} (order ${fill.orderId})`
}

/**
 * `4.1/s ~95 ms`: a stream's polls a second and estimated staleness, or `4.1/s -` before
 * its first answer (no staleness measured yet); `aligned`, in a fixed width
 * (` 4.1/s ~   95 ms`, ` 4.1/s         -`: the health row keeps its wrapping as the
 * figures move).
 */
function pacedAs(pace: FreshnessReport[string], aligned: boolean): string {
  const rate = pace.pollsPerSecond.toFixed(1)
  if (pace.stalenessMs === undefined) {
    return aligned ? `${rate.padStart(4)}/s ${'-'.padStart(9)}` : `${rate}/s -`
  }
  const stale = String(Math.min(pace.stalenessMs, 99_999))
  return aligned ? `${rate.padStart(4)}/s ~${stale.padStart(5)} ms` : `${rate}/s ~${stale} ms`
}

/** `5 ok, 1 retrying`: streams by state. */
function healthCounts(report: HealthReport): string {
  const counts = new Map<string, number>()
  for (const health of Object.values(report)) {
    counts.set(health.state, (counts.get(health.state) ?? 0) + 1)
  }
  if (counts.size === 0) return 'none yet'
  return [...counts].map(([state, n]) => `${n} ${state}`).join(', ')
}

/** `watchDepth({"pool_id":0})#1` → `watchDepth#1`: the method and lane of a stream key. */
function shortKey(key: string): string {
  const open = key.indexOf('(')
  const lane = /#\d+$/.exec(key)?.[0] ?? ''
  return open === -1 ? key : `${key.slice(0, open)}${lane}`
}

function describeHealth(health: HealthReport[string]): string {
  switch (health.state) {
    case 'ok':
      return 'ok'
    case 'retrying':
      return `retrying (attempt ${health.attempt}, ${health.lastErrorCode}: ${health.lastErrorMessage})`
    case 'gap':
      return `gap from ${clock(health.since)} to ${clock(health.until)}`
    case 'failed':
      return `failed (${health.errorCode}: ${health.errorMessage})`
  }
}
