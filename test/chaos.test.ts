/**
 * The chaos run, short: 300 polls with every kind of fault at once (about 20 % of the
 * requests fail) while the market moves. Proves that the exactly-once feeds lose, repeat and
 * reorder nothing, that public trades are missed only inside reported gaps, that every book
 * event rebuilds exactly the book served at that poll, that every order stream ends done as
 * the truth says (none fails), that nothing is left unhandled, and
 * that the faults really happened. The counters themselves are checked first on made-up
 * deliveries, so that a broken counter cannot pass the run.
 */
import { describe, expect, it } from 'vitest'
import {
  CHAOS_FAULT_KINDS,
  type ChaosReport,
  countFeed,
  countPublicTrades,
  type Keyed,
  runChaos,
} from './long/chaos.js'

const POLLS = 300
/** Events of every book stream before the faults stop (more polls if need be). */
const BOOK_EVENTS = 11

const items = (...keys: number[]): Keyed[] =>
  keys.map((key) => ({ key: String(key), text: `t${key}` }))

describe('the chaos counters', () => {
  it('count lost, repeated, out-of-order, unexpected and mismatched feed items', () => {
    const truth = items(1, 2, 3, 4, 5)
    expect(countFeed(items(1, 2, 3, 4, 5), truth)).toMatchObject({
      lost: 0,
      repeated: 0,
      outOfOrder: 0,
      unexpected: 0,
      mismatched: 0,
    })
    const delivered = [...items(1, 3, 2, 3, 9), { key: '4', text: 'other' }]
    expect(countFeed(delivered, truth)).toMatchObject({
      truth: 5,
      delivered: 6,
      lost: 1, // 5
      repeated: 1, // the second 3
      outOfOrder: 2, // 2 after 3, 3 after 3
      unexpected: 1, // 9
      mismatched: 1, // 4
    })
    // Keys compare as integers beyond 2^53, whatever their type was.
    const big = [
      { key: '9007199254740993', text: '' },
      { key: '9007199254740992', text: '' },
    ]
    expect(countFeed(big, big).outOfOrder).toBe(1)
  })

  it('allow missing public trades only inside a reported gap', () => {
    const tape = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    // Subscribed at c; a gap reported, d and e skipped inside it.
    expect(countPublicTrades(0, ['c', undefined, 'f', 'g', 'h'], tape)).toMatchObject({
      delivered: 4,
      matched: 4,
      verifiable: 4,
      gaps: 1,
      skippedInGaps: 2,
      lost: 0,
      repeated: 0,
      unexpected: 0,
    })
    // The same without the gap event: two lost.
    expect(countPublicTrades(0, ['c', 'f', 'g', 'h'], tape)).toMatchObject({ lost: 2, gaps: 0 })
    // A repeat, an unknown trade, and a tail never delivered.
    expect(countPublicTrades(0, ['c', 'd', 'd', 'x', 'e', 'f'], tape)).toMatchObject({
      repeated: 1,
      unexpected: 1,
      lost: 2,
    })
    // Two identical fills in a row are two trades.
    expect(countPublicTrades(0, ['b', 'b', 'c'], ['a', 'b', 'b', 'c'])).toMatchObject({
      matched: 3,
      repeated: 0,
      lost: 0,
    })
  })
})

describe('chaos against the faulty simulator', () => {
  // The run's own waits are bounded (the polls, the catch-up, the orders' ends: 15 s
  // each), and a busy machine may need them whole.
  it(`${POLLS} polls with every fault kind: nothing lost, repeated or reordered, every book exact`, {
    timeout: 60_000,
  }, async () => {
    const report: ChaosReport = await runChaos({
      seed: 3,
      polls: POLLS,
      minBookEvents: BOOK_EVENTS,
    })

    // The run really happened: the polls, and every kind of fault, 500 and 503 both.
    expect(report.polls.atStop).toBeGreaterThanOrEqual(POLLS)
    for (const kind of CHAOS_FAULT_KINDS) {
      expect(report.faults[kind], `${kind} in ${JSON.stringify(report.faults)}`).toBeGreaterThan(0)
    }
    expect(report.errorStatuses['500'] ?? 0).toBeGreaterThan(0)
    expect(report.errorStatuses['503'] ?? 0).toBeGreaterThan(0)
    const failed = report.faults.error + report.faults.reset + report.faults.hang
    expect(
      failed + report.faults.rateLimit + report.faults.malformed + report.faults.truncate,
    ).toBeGreaterThan(POLLS * 0.1)
    expect(report.ticks).toBeGreaterThan(0)
    expect(report.caughtUp).toBe(true)

    // Exactly-once feeds: the whole truth, once each, ascending, equal field by field.
    for (const feed of [report.myTrades, report.fills, report.transfers]) {
      expect(feed.truth).toBeGreaterThan(100)
      expect(feed).toMatchObject({
        delivered: feed.truth,
        lost: 0,
        repeated: 0,
        outOfOrder: 0,
        unexpected: 0,
        mismatched: 0,
      })
    }

    // Public trades: all of them since the first window, except inside reported gaps.
    const trades = report.publicTrades
    expect(trades.delivered).toBeGreaterThan(100)
    expect(trades).toMatchObject({ lost: 0, repeated: 0, unexpected: 0, unverifiable: 0 })
    expect(trades.matched).toBe(trades.delivered)
    expect(trades.verifiable).toBe(trades.delivered)
    expect(trades.skippedPerGap).toHaveLength(trades.gaps)

    // Books: every event of every stream rebuilds the served book; resyncs after faults.
    expect(report.books).toHaveLength(4)
    for (const book of report.books) {
      expect(book.events, book.name).toBeGreaterThanOrEqual(BOOK_EVENTS)
      expect(book, book.name).toMatchObject({
        equal: book.events,
        unequal: 0,
        noServedBook: 0,
        sequenceErrors: 0,
        finalEqual: true,
      })
      expect(book.snapshots, book.name).toBe(1)
      expect(book.deltas, book.name).toBeGreaterThan(0)
    }
    expect(report.books.reduce((sum, book) => sum + book.resyncs, 0)).toBeGreaterThan(0)
    expect(report.bookEqualShare).toBe(1)

    // Order streams: each placed order followed to its done, as the truth says; none failed.
    const orders = report.orders
    expect(orders.placed).toBeGreaterThan(5)
    expect(orders, orders.examples.join('; ')).toMatchObject({
      done: orders.placed,
      failed: 0,
      notDone: 0,
      wrongStatus: 0,
      wrongFills: 0,
      unreconciled: 0,
    })

    expect(report.unhandledRejections).toBe(0)
    expect(report.uncaughtExceptions).toBe(0)
    expect(report.streamErrors).toEqual([])
    expect(report.failures).toEqual([])
  })
})
