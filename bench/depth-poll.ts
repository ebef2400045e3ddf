/**
 * One depth poll as a `watchOrderBook` subscriber pays it, against `JSON.parse` of the
 * same answer alone, in one run: for books of 100, 1,000 and 5,000 levels a side.
 *
 *   npx tsx bench/depth-poll.ts [--json]
 *
 * The poll: the answer's text through the client's `interpretResponse` (JSON parse with
 * its exact-number pre-scan, envelope and depth validation, helped by the previous answer
 * as the client's requester does), `toBookEvents` (the diff
 * against the previous poll and the emitted event) and `applyBookEvent` (the
 * subscriber's new book). The transport is left out: it is the same for any client.
 * Each poll changes 1% of the levels' quantities and moves 0.5% of the levels a side,
 * prices and quantities as the venue writes them (fixed decimals). The same 32 answers
 * are cycled; each cycle starts a fresh subscriber, whose first poll is a snapshot.
 * Batches are interleaved; the median is kept.
 */
import { Subject } from 'rxjs'
import { applyBookEvent } from '../src/book/apply-book-event.js'
import type { BookEvent } from '../src/book/book-event.js'
import type { OrderBook } from '../src/book/order-book.js'
import { interpretResponse } from '../src/rest/interpret-response.js'
import { type Depth, depthSchema } from '../src/schemas/depth.js'
import { fastDepth } from '../src/schemas/fast-paths.js'
import { type DepthPoll, toBookEvents } from '../src/streams/to-book-events.js'
import { depthAnswers } from './support/depth-answers.js'
import { medianMicros, printTable, type Summary, summaryLine } from './support/measure.js'

const SIZES = [100, 1_000, 5_000] as const
const POLLS = 32
const TARGET = 1.5

const context = { endpoint: 'depth', redact: (text: string) => text, now: Date.now }

function bench(levels: number): { parse: number; poll: number; bytes: number } {
  const texts = depthAnswers(levels, POLLS)
  const responses = texts.map((body) => ({ status: 200, headers: {}, body }))
  let sink = 0
  let book: OrderBook | undefined
  let known: Depth | undefined
  let polls = new Subject<DepthPoll>()
  let fed = POLLS
  const restart = () => {
    polls.complete()
    polls = new Subject<DepthPoll>()
    book = undefined
    polls.pipe(toBookEvents(0)).subscribe((event: BookEvent) => {
      book = applyBookEvent(book, event)
    })
    fed = 0
  }
  let j = 0
  const timings = medianMicros({
    parse: () => {
      sink += (JSON.parse(texts[j] as string) as { data: { bids: unknown[] } }).data.bids.length
      j = (j + 1) % POLLS
    },
    poll: () => {
      if (fed === POLLS) restart()
      // As the client's requester does: the last answer to the same request helps the next.
      const { data } = interpretResponse(
        responses[fed] as never,
        depthSchema,
        context,
        (raw, tally) => fastDepth(raw, known, tally),
      )
      known = data
      polls.next({ depth: data, afterRecovery: false })
      fed += 1
      sink += book?.seq ?? 0
    },
  })
  if (sink < 0) console.log(sink)
  const bytes = texts.reduce((sum, text) => sum + text.length, 0) / texts.length
  return { parse: timings['parse'] ?? 0, poll: timings['poll'] ?? 0, bytes }
}

const rows = SIZES.map((levels) => ({ levels, ...bench(levels) }))
const summaries: Summary[] = rows.map((row) => ({
  figure: `depth poll to OrderBook vs JSON.parse, ${row.levels.toLocaleString('en-US')} levels`,
  value: row.poll / row.parse,
  unit: 'x JSON.parse',
  target: `<= ${TARGET}x`,
  met: row.poll / row.parse <= TARGET,
}))
if (process.argv.includes('--json')) {
  for (const summary of summaries) console.log(summaryLine(summary))
} else {
  const us = (n: number) => `${n < 100 ? n.toFixed(1) : n.toFixed(0)} µs`
  console.log('depth poll: answer text to the subscriber’s OrderBook, against JSON.parse alone')
  printTable([
    ['levels/side', 'answer', 'JSON.parse', 'whole poll', 'poll / parse', 'target'],
    ...rows.map((row) => [
      row.levels.toLocaleString('en-US'),
      `${(row.bytes / 1024).toFixed(1)} KiB`,
      us(row.parse),
      us(row.poll),
      `${(row.poll / row.parse).toFixed(2)}x`,
      `<= ${TARGET}x`,
    ]),
  ])
}
