/**
 * Counting what the feeds delivered against the ground truth: the exactly-once feeds by key,
 * the public trades (no id) by their place in the simulator's tape.
 */
import type { FeedCounts, PublicTradeCounts } from './report.js'
import type { Keyed } from './truth.js'

/** Compares what an exactly-once feed delivered with the truth. */
export function countFeed(delivered: readonly Keyed[], truth: readonly Keyed[]): FeedCounts {
  const wanted = new Map(truth.map((item) => [item.key, item.text]))
  const seen = new Set<string>()
  const examples: string[] = []
  const example = (line: string) => {
    if (examples.length < 20) examples.push(line)
  }
  let repeated = 0
  let outOfOrder = 0
  let unexpected = 0
  let mismatched = 0
  let previous: bigint | undefined
  for (const item of delivered) {
    const key = BigInt(item.key)
    if (previous !== undefined && key <= previous) {
      outOfOrder += 1
      example(`out of order: ${item.key} after ${previous}`)
    }
    previous = key
    if (seen.has(item.key)) {
      repeated += 1
      example(`repeated: ${item.key}`)
      continue
    }
    seen.add(item.key)
    const text = wanted.get(item.key)
    if (text === undefined) {
      unexpected += 1
      example(`unexpected: ${item.key}`)
    } else if (text !== item.text) {
      mismatched += 1
      example(`mismatched: ${item.key}: got ${item.text}, want ${text}`)
    }
  }
  let lost = 0
  for (const item of truth) {
    if (!seen.has(item.key)) {
      lost += 1
      example(`lost: ${item.key}`)
    }
  }
  return {
    truth: truth.length,
    delivered: delivered.length,
    lost,
    repeated,
    outOfOrder,
    unexpected,
    mismatched,
    examples,
  }
}

/** What `watchTrades` emitted, in order: trades as text, gaps as `undefined`. */
export type PublicEvent = string | undefined

/** How far to look ahead (lost trades) or back (repeated ones) when a trade is not in place. */
const LOOK = 300

/**
 * Compares the public trades delivered with the simulator's tape (oldest first). Public
 * trades carry no id, so each run of trades between gaps is placed where it matches the
 * tape contiguously (the first run anywhere, a run after a gap anywhere after the previous
 * run: the trades skipped there are inside a reported gap); within a run, a trade out of
 * place is a loss (found further on), a repeat (found just before) or unexpected.
 */
export function countPublicTrades(
  poolId: number,
  events: readonly PublicEvent[],
  tape: readonly string[],
): PublicTradeCounts {
  const segments: string[][] = [[]]
  for (const event of events) {
    if (event === undefined) segments.push([])
    else segments.at(-1)?.push(event)
  }
  const matchesAt = (segment: readonly string[], at: number) =>
    at + segment.length <= tape.length && segment.every((trade, i) => tape[at + i] === trade)
  const counts = {
    delivered: events.filter((event) => event !== undefined).length,
    matched: 0,
    skippedInGaps: 0,
    lost: 0,
    repeated: 0,
    unexpected: 0,
    unverifiable: 0,
  }
  const skippedPerGap: number[] = []
  let start: number | undefined
  let position = 0
  segments.forEach((whole, index) => {
    let segment: readonly string[] = whole
    if (segment.length === 0) return
    let at = -1
    for (let q = position; q + segment.length <= tape.length; q += 1) {
      if (matchesAt(segment, q)) {
        at = q
        break
      }
    }
    if (at < 0 && index === 0 && tape.length > 0) {
      // The first trades may be older than the tape the simulator keeps.
      const oldest = segment.indexOf(tape[0] as string)
      if (oldest > 0 && matchesAt(segment.slice(oldest), 0)) {
        counts.unverifiable += oldest
        segment = segment.slice(oldest)
        at = 0
      }
    }
    if (at < 0) {
      // No contiguous place: start at the first occurrence of its first trade.
      const first = tape.indexOf(segment[0] as string, position)
      at = first < 0 ? position : first
    }
    if (start === undefined) {
      start = at
    } else {
      counts.skippedInGaps += at - position
      skippedPerGap.push(at - position)
    }
    position = at
    for (const trade of segment) {
      if (tape[position] === trade) {
        counts.matched += 1
        position += 1
        continue
      }
      const ahead = tape.indexOf(trade, position)
      if (ahead >= 0 && ahead - position <= LOOK) {
        counts.lost += ahead - position
        counts.matched += 1
        position = ahead + 1
        continue
      }
      const behind = tape.lastIndexOf(trade, position - 1)
      if (behind >= 0 && position - behind <= LOOK) counts.repeated += 1
      else counts.unexpected += 1
    }
  })
  // After the catch-up, every trade up to the end of the tape was due.
  if (start !== undefined) counts.lost += tape.length - position
  const verifiable = start === undefined ? 0 : tape.length - start - counts.skippedInGaps
  return { poolId, verifiable, gaps: segments.length - 1, skippedPerGap, ...counts }
}
