/**
 * One bot of a fleet test, in its own process: `consumer-process.ts <JSON settings>`.
 * Reads through the relay (`createVenue({ relay })`) and prints one JSON line per event:
 * - `{ "t": "trade", "seq" }` per own trade (watchMyTrades, resumed from a file checkpoint),
 * - `{ "t": "transfer", "sid" }` per transfer (likewise),
 * - `{ "t": "fill", "id" }` per fill (`<global_seq>/<role>`; likewise),
 * - `{ "t": "book", "seq", "ts", "digest" }` per book event: the digest of the consumer's
 *   whole book after applying it (sha1 of the JSON of its bids and asks),
 * - `{ "t": "health", "key", "state" }` when a relayed stream turns retrying or ok.
 * Settings: `{ baseUrl, apiKey, redis, prefix, dir, pool }`.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { applyBookEvent, createVenue, fileCheckpoint, type OrderBook } from '../../src/index.js'

const settings = JSON.parse(process.argv[2] ?? '{}')
const venue = createVenue({
  baseUrl: settings.baseUrl,
  apiKey: settings.apiKey,
  backoff: { initialMs: 20, maxMs: 200 },
  relay: { redis: settings.redis, prefix: settings.prefix },
})
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`)
const fail = (error: unknown) => {
  print({ t: 'error', message: error instanceof Error ? error.message : String(error) })
  process.exit(1)
}
venue
  .watchMyTrades({ checkpoint: fileCheckpoint<string>(join(settings.dir, 'trades.cursor.json')) })
  .subscribe({ next: (trade) => print({ t: 'trade', seq: trade.global_seq }), error: fail })
venue
  .watchTransfers({
    checkpoint: fileCheckpoint<string>(join(settings.dir, 'transfers.cursor.json')),
  })
  .subscribe({ next: (transfer) => print({ t: 'transfer', sid: transfer.sid }), error: fail })
venue
  .watchFills({ checkpoint: fileCheckpoint<string>(join(settings.dir, 'fills.cursor.json')) })
  .subscribe({
    next: (fill) => print({ t: 'fill', id: `${fill.globalSeq}/${fill.role}` }),
    error: fail,
  })
let book: OrderBook | undefined
venue.watchDepth(settings.pool).subscribe({
  next: (event) => {
    book = applyBookEvent(book, event)
    const digest = createHash('sha1')
      .update(JSON.stringify([book.bids, book.asks]))
      .digest('hex')
    const prevSeq = event.type === 'delta' ? event.prevSeq : undefined
    print({ t: 'book', seq: event.seq, prevSeq, kind: event.type, ts: event.timestamp, digest })
  },
  error: fail,
})
const states: Record<string, string> = {}
venue.health.subscribe((report) => {
  for (const [key, health] of Object.entries(report)) {
    if (states[key] === health.state) continue
    states[key] = health.state
    print({ t: 'health', key, state: health.state })
  }
})
process.once('SIGTERM', () => void venue.close().then(() => process.exit(0)))
