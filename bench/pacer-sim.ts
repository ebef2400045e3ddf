/**
 * Pacing on a synthetic bursty timeline, in virtual time (seconds to run, no simulator):
 * the pacer's allocation against fixed intervals and the square-root oracles, for tuning
 * its constants. `npx tsx bench/pacer-sim.ts [budget] [minutes]`; `NOHURRY=1` leaves out
 * the causal hurry of a pool's book by its trades (the book then loses its share to the
 * trades, whose changes are counted one by one: 124 ms against 86 at 40/s).
 */
import { delay, of, Subject, type Subscription, VirtualTimeScheduler } from 'rxjs'
import { poll } from '../src/core/poll.js'
import { type PacedStream, type Pacing, PollPacer } from '../src/core/poll-pacer.js'

const BUDGET = Number(process.argv[2] ?? 40)
const MINUTES = Number(process.argv[3] ?? 5)
const RUN_MS = MINUTES * 60_000
const RTT = 2
let seed = 7
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
const uniform = (lo: number, hi: number) => lo + (hi - lo) * random()

interface Stream {
  readonly key: string
  readonly changes: number[]
  /** binary: a poll sees "changed"; count: how many. */
  readonly observe: 'binary' | 'count'
  readonly hurries?: string
  readonly wakes?: string
}

function timeline(): Stream[] {
  const streams: Stream[] = []
  for (let pool = 0; pool < 4; pool += 1) {
    const book: number[] = []
    const trades: number[] = []
    let t = 0
    let bursting = random() < 0.33
    while (t < RUN_MS) {
      const length = bursting ? uniform(1000, 4000) : uniform(2000, 8000)
      if (bursting) {
        for (let at = t + uniform(20, 50); at < t + length; at += uniform(20, 50)) {
          book.push(at)
          if (random() < 0.45) trades.push(at)
          if (random() < 0.45) trades.push(at)
        }
      }
      t += length
      bursting = !bursting
    }
    streams.push({ key: `book ${pool}`, changes: book, observe: 'binary' })
    streams.push({
      key: `trades ${pool}`,
      changes: trades,
      observe: 'count',
      ...(process.env['NOHURRY'] ? {} : { hurries: `book ${pool}` }),
    })
  }
  const own: number[] = []
  for (let at = uniform(0, 6000); at < RUN_MS; at += uniform(5000, 7000)) own.push(at)
  streams.push({ key: 'myTrades', changes: own, observe: 'count', wakes: 'balances' })
  streams.push({ key: 'balances', changes: own.map((t) => t), observe: 'binary' })
  return streams
}

function run(
  streams: readonly Stream[],
  pacing: Pacing,
  intervalMs: number,
  pollsPerSecond: number,
) {
  const scheduler = new VirtualTimeScheduler(undefined, RUN_MS)
  const pacer = new PollPacer({ pacing, pollsPerSecond, intervalMs, scheduler })
  const stale: number[] = []
  const perStream = new Map<string, number[]>()
  const wakes = new Map<string, Subject<void>>()
  const paces = new Map(
    streams.map((s) => [s.key, pacer.join(s.key, s.key === 'myTrades' ? 'high' : 'normal')]),
  )
  const subs: Subscription[] = []
  let requests = 0
  for (const stream of streams) {
    const pace = paces.get(stream.key) as PacedStream
    const wake = new Subject<void>()
    wakes.set(stream.key, wake)
    const mine: number[] = []
    perStream.set(stream.key, mine)
    let seen = 0
    subs.push(
      poll(
        () => {
          requests += 1
          pacer.spent(stream.key)
          const at = scheduler.now()
          let upTo = seen
          while (upTo < stream.changes.length && (stream.changes[upTo] as number) <= at) upTo += 1
          return of(upTo).pipe(delay(RTT, scheduler))
        },
        // In interval pacing the pacer's turn is the interval from the last start.
        { pace, scheduler, wake },
      ).subscribe((upTo) => {
        const now = scheduler.now()
        for (let i = seen; i < upTo; i += 1) {
          const s = now - (stream.changes[i] as number)
          stale.push(s)
          mine.push(s)
        }
        const n = upTo - seen
        pace.observed(stream.observe === 'count' ? n : n > 0)
        if (n > 0 && stream.hurries) {
          if (pacing === 'interval') wakes.get(stream.hurries)?.next()
          else paces.get(stream.hurries)?.hurry()
        }
        if (n > 0 && stream.wakes) wakes.get(stream.wakes)?.next()
        seen = upTo
      }),
    )
  }
  if (process.env['DEBUG'] && pacing === 'adaptive') {
    for (let t = 20_000; t < 30_000; t += 500) {
      scheduler.schedule(() => {
        const r = pacer.report()
        console.log(
          t,
          Object.entries(r)
            .filter(([k]) => k.includes(' 0') || k.includes(' 1'))
            .map(
              ([k, v]) => `${k}: p${v.pollsPerSecond.toFixed(1)} c${v.changesPerSecond.toFixed(1)}`,
            )
            .join(' | '),
        )
      }, t)
    }
  }
  scheduler.flush()
  for (const s of subs) s.unsubscribe()
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length)
  const kinds: Record<string, number> = {}
  for (const kind of ['book', 'trades', 'myTrades', 'balances']) {
    kinds[kind] = mean([...perStream].filter(([k]) => k.startsWith(kind)).flatMap(([, v]) => v))
  }
  return { mean: mean(stale), rps: requests / (RUN_MS / 1000), kinds }
}

/** Square-root oracle with rates per `bucketMs` (Infinity: one rate per stream for the run). */
function oracle(streams: readonly Stream[], budget: number, bucketMs: number): number {
  const buckets = Number.isFinite(bucketMs) ? Math.ceil(RUN_MS / bucketMs) : 1
  const size = Number.isFinite(bucketMs) ? bucketMs : RUN_MS
  let cost = 0
  let count = 0
  for (let b = 0; b < buckets; b += 1) {
    const rates = streams.map(
      (s) => s.changes.filter((t) => t >= b * size && t < (b + 1) * size).length / (size / 1000),
    )
    const roots = rates.reduce((sum, r) => sum + Math.sqrt(r), 0)
    if (roots === 0) continue
    for (const rate of rates) {
      if (rate === 0) continue
      const period = (1000 * roots) / (budget * Math.sqrt(rate))
      cost += rate * (size / 1000) * (period / 2 + RTT)
      count += rate * (size / 1000)
    }
  }
  return cost / count
}

const streams = timeline()
const fmt = (r: { mean: number; rps: number; kinds: Record<string, number> }) =>
  `${r.mean.toFixed(1)} ms at ${r.rps.toFixed(1)}/s  ` +
  Object.entries(r.kinds)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(' ')
console.log(`budget ${BUDGET}/s, ${MINUTES} min`)
console.log('oracle static      ', oracle(streams, BUDGET, Number.POSITIVE_INFINITY).toFixed(1))
console.log('oracle per second  ', oracle(streams, BUDGET, 1000).toFixed(1))
console.log('interval hand-tuned', fmt(run(streams, 'interval', (10 * 1000) / BUDGET, BUDGET)))
console.log('even               ', fmt(run(streams, 'even', 1000, BUDGET * 0.97)))
console.log('adaptive           ', fmt(run(streams, 'adaptive', 1000, BUDGET * 0.97)))
