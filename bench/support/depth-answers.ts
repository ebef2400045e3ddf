/**
 * The depth answers of consecutive polls of a moving book, as the venue writes them: each
 * poll changes 1% of the levels' quantities and moves 0.5% of the levels a side, prices
 * and quantities with fixed decimals. Seeded by the book's size: the same answers every
 * run.
 */
import { mulberry32 } from '../../test/helpers/random.js'
import { bookTicks, fixed } from './measure.js'

/** The JSON answers (whole envelopes) of `polls` consecutive polls of `levels` levels a side. */
export function depthAnswers(levels: number, polls: number): string[] {
  const random = mulberry32(levels)
  const sides = bookTicks(levels, random)
  const { mid } = sides
  const out: string[] = []
  for (let n = 0; n < polls; n += 1) {
    const side = (map: Map<number, number>, descending: boolean) =>
      [...map]
        .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]))
        .map(([tick, size]) => [fixed(tick, 4), fixed(size, 4)])
    const data = {
      asks: side(sides.asks, false),
      bids: side(sides.bids, true),
      pool_id: 0,
      precision: '0.0001',
      timestamp: 1_700_000_000_000 + n * 1000,
    }
    out.push(JSON.stringify({ code: 0, message: 'OK', data }))
    for (const map of [sides.bids, sides.asks]) {
      const ticks = [...map.keys()]
      const pick = () => ticks[Math.floor(random() * ticks.length)] as number
      for (let k = 0; k < Math.max(1, Math.round(levels * 0.01)); k += 1) {
        map.set(pick(), 1 + Math.floor(random() * 5e7))
      }
      for (let k = 0; k < Math.max(1, Math.round(levels * 0.005)); k += 1) {
        const gone = pick()
        map.delete(gone)
        map.set(gone + (gone < mid ? -1 : 1), 1 + Math.floor(random() * 5e7))
      }
    }
  }
  return out
}
