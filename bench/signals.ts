/**
 * The exact signals through RxJS as a user runs them, `from(inputs).pipe(ema(20))`, in
 * values per second: `ema(20)`, `microprice()`, `imbalance(10)` and `vwap(60_000)` (18
 * decimals, the default), and with no target `tradeFlowImbalance(60_000)`, each beside the
 * string-arithmetic implementation it replaced (test/helpers/string-signals.ts) measured in
 * the same run, and trading-signals' float EMA through `indicator()` as the reference of a
 * float indicator.
 *
 *   npx tsx bench/signals.ts [--json] [name]   (name: only the signals it is part of)
 *
 * Inputs, made once from a fixed seed: 2,000 prices of a random walk around 1.0456, each
 * with 4 to 8 decimals (`'1.0456'`, `'1.04561837'`); 2,000 order books of 50 levels a
 * side (prices with 6 decimals, quantities with 4), each the one before with one to three
 * levels among the best 12 of a side changed, removed or added by `applyBookEvent`; 2,000
 * trades (prices with 4 to 8 decimals, quantities with 1 to 4, buys and sells) 0 to 200 ms
 * apart, about 600 of them in the 60 s window; and, for `imbalance(10)` alone and with no target, 2,000
 * books of 12 levels a side whose every quantity is new each book (its worst case: it
 * reads again each level whose text changed). Every run is one subscription over all of
 * an input list; both implementations are checked to emit the same strings first. Runs
 * are interleaved in batches; the median is kept.
 */
import { from, type OperatorFunction } from 'rxjs'
import { EMA } from 'trading-signals'
import {
  ema,
  imbalance,
  indicator,
  microprice,
  tradeFlowImbalance,
  vwap,
} from '../src/signals/index.js'
import { mulberry32 } from '../test/helpers/random.js'
import {
  baselineEma,
  baselineImbalance,
  baselineMicroprice,
  baselineTradeFlowImbalance,
  baselineVwap,
} from '../test/helpers/string-signals.js'
import {
  medianMicros,
  positionalArgs,
  printTable,
  type Summary,
  summaryLine,
} from './support/measure.js'
import { books, COUNT, freshBooks, prices, trades } from './support/signal-inputs.js'

const TARGET = 1_000_000

/** Everything `operator` emits for `inputs`, in one subscription. */
function emitted<T, R>(inputs: readonly T[], operator: OperatorFunction<T, R>): R[] {
  const out: R[] = []
  from(inputs)
    .pipe(operator)
    .subscribe((value) => out.push(value))
  return out
}

let sink = 0
/** One subscription over all of `inputs`, each value kept by a sink. */
function runOf<T, R>(inputs: readonly T[], operator: () => OperatorFunction<T, R>): () => void {
  return () => {
    from(inputs)
      .pipe(operator())
      .subscribe(() => {
        sink += 1
      })
  }
}

interface Row {
  readonly signal: string
  readonly ours: number
  readonly baseline: number
}

/** Values (inputs) per second of one run over `count` inputs taking `micros` µs. */
const perSecond = (count: number, micros: number) => (count / micros) * 1e6

function measure<T, R>(
  signal: string,
  inputs: readonly T[],
  ours: () => OperatorFunction<T, R>,
  baseline: () => OperatorFunction<T, R>,
  extra: Record<string, () => void> = {},
): { row: Row; extra: Record<string, number> } {
  const a = JSON.stringify(emitted(inputs, ours()))
  const b = JSON.stringify(emitted(inputs, baseline()))
  if (a !== b) throw new Error(`${signal}: the two implementations emit different values`)
  const timings = medianMicros({
    ours: runOf(inputs, ours),
    baseline: runOf(inputs, baseline),
    ...extra,
  })
  const rate = (name: string) => perSecond(inputs.length, timings[name] ?? Number.NaN)
  return {
    row: { signal, ours: rate('ours'), baseline: rate('baseline') },
    extra: Object.fromEntries(Object.keys(extra).map((name) => [name, rate(name)])),
  }
}

const random = mulberry32(20_240)
const priceList = prices(random)
const bookList = books(random)
const tradeList = trades(random)
const freshBookList = freshBooks(random)

/** The row of imbalance on books whose every quantity is new: no target. */
const FRESH = 'imbalance(10), every quantity new'
/** The row of tradeFlowImbalance: no target. */
const FLOW = 'tradeFlowImbalance(60_000)'
/** Rows measured without a target. */
const UNTARGETED = new Set([FRESH, FLOW])

const only = positionalArgs()[0]
const chosen = (signal: string) => only === undefined || signal.includes(only)
const emaRun = chosen('ema(20)')
  ? measure(
      'ema(20)',
      priceList,
      () => ema(20),
      () => baselineEma(20),
      { tradingSignals: runOf(priceList, () => indicator(() => new EMA(20))) },
    )
  : undefined
/** The row of `signal`, or none when the command line chose others (`name`: what it is chosen by). */
function rowOf<T, R>(
  signal: string,
  inputs: readonly T[],
  ours: () => OperatorFunction<T, R>,
  baseline: () => OperatorFunction<T, R>,
  name = signal,
): Row[] {
  return chosen(name) ? [measure(signal, inputs, ours, baseline).row] : []
}
const rows: Row[] = [
  ...(emaRun === undefined ? [] : [emaRun.row]),
  ...rowOf(
    'microprice()',
    bookList,
    () => microprice(),
    () => baselineMicroprice(),
  ),
  ...rowOf(
    'imbalance(10)',
    bookList,
    () => imbalance(10),
    () => baselineImbalance(10),
  ),
  ...rowOf(
    FRESH,
    freshBookList,
    () => imbalance(10),
    () => baselineImbalance(10),
    'imbalance(10)',
  ),
  ...rowOf(
    'vwap(60_000)',
    tradeList,
    () => vwap(60_000),
    () => baselineVwap(60_000),
  ),
  ...rowOf(
    FLOW,
    tradeList,
    () => tradeFlowImbalance(60_000),
    () => baselineTradeFlowImbalance(60_000),
  ),
]
const floatEma = emaRun?.extra['tradingSignals']
if (sink < 0) console.log(sink)

const summaries: Summary[] = rows
  .filter((row) => !UNTARGETED.has(row.signal))
  .map((row) => ({
    figure: `${row.signal} through rxjs, exact, 18 decimals`,
    value: row.ours,
    unit: 'values/s',
    target: '>= 1,000,000 values/s',
    met: row.ours >= TARGET,
  }))
const count = (n: number) => Math.round(n).toLocaleString('en-US')
if (process.argv.includes('--json')) {
  for (const summary of summaries) console.log(summaryLine(summary))
} else {
  console.log(
    `signals: values per second through rxjs, ${COUNT.toLocaleString('en-US')} inputs a run`,
  )
  printTable([
    ['signal', 'venue-rx', 'string baseline', 'speed-up', 'target'],
    ...rows.map((row) => [
      row.signal,
      count(row.ours),
      count(row.baseline),
      `${(row.ours / row.baseline).toFixed(2)}x`,
      UNTARGETED.has(row.signal) ? '-' : '>= 1,000,000',
    ]),
  ])
  if (emaRun !== undefined && floatEma !== undefined) {
    console.log(
      `\nreference: trading-signals EMA(20) (floating point) via indicator(): ${count(floatEma)} values/s` +
        ` (ema(20) exact: ${(emaRun.row.ours / floatEma).toFixed(2)}x of it)`,
    )
  }
}
