/** The demo's board: what each stream event shows, rendered without colours. */
import { describe, expect, it } from 'vitest'
import { DemoBoard, gauge } from '../src/cli/demo-board.js'
import { sideBySide, visibleWidth } from '../src/cli/render.js'
import { sparkline } from '../src/cli/sparkline.js'
import { applyBookEvent, type BookEvent } from '../src/index.js'

const plain = (_: unknown, text: string) => text
const colour = (format: unknown, text: string) => `<${String(format)}>${text}</>`

const snapshot: BookEvent = {
  type: 'snapshot',
  poolId: 0,
  seq: 1,
  timestamp: 1_700_000_000_000,
  reason: 'initial',
  bids: [
    ['1.0450', '10'],
    ['1.0440', '20'],
  ],
  asks: [
    ['1.0460', '5'],
    ['1.0470', '7'],
  ],
}
const delta: BookEvent = {
  type: 'delta',
  poolId: 0,
  seq: 2,
  prevSeq: 1,
  timestamp: 1_700_000_001_000,
  bids: [['1.0440', '25']],
  asks: [['1.0460', '0']],
}

function boardAfter(events: readonly BookEvent[]): { board: DemoBoard; lines: string[] } {
  const board = new DemoBoard('test', 10)
  const lines: string[] = []
  let book = applyBookEvent(undefined, events[0] as BookEvent)
  lines.push(board.onBook(events[0] as BookEvent, book))
  for (const event of events.slice(1)) {
    book = applyBookEvent(book, event)
    lines.push(board.onBook(event, book))
  }
  return { board, lines }
}

describe('the demo board', () => {
  it('marks the levels the last delta changed, and only those', () => {
    const { board, lines } = boardAfter([snapshot, delta])
    expect(lines).toEqual([
      'book   seq 1 snapshot (initial): 2 bids, 2 asks, best 1.0450 / 1.0460',
      'book   seq 2 delta: 1 bid and 1 ask levels changed, best 1.0450 / 1.0470',
    ])
    const ladder = board
      .frame(plain, 100, 0)
      .map((line) => /^([* ]) (ask|bid)\s+(\S+)\s+(\S+)/.exec(line)?.slice(1))
      .filter((row) => row !== undefined)
    // The removed ask is gone; the changed bid is marked.
    expect(ladder).toEqual([
      [' ', 'ask', '1.0470', '7'],
      [' ', 'bid', '1.0450', '10'],
      ['*', 'bid', '1.0440', '25'],
    ])
  })

  it('after a snapshot nothing is marked', () => {
    const { board } = boardAfter([snapshot])
    expect(board.frame(plain, 100, 0).some((line) => line.startsWith('* '))).toBe(false)
  })

  it('shows a retrying stream with its attempt, and prints each change of state once', () => {
    const board = new DemoBoard('test', 10)
    expect(board.onHealth({ 'watchTrades(0)': { state: 'ok' } })).toEqual([
      'health watchTrades(0): ok',
    ])
    expect(board.onHealth({ 'watchTrades(0)': { state: 'ok' } })).toEqual([])
    const retrying = {
      state: 'retrying',
      attempt: 2,
      nextDelayMs: 400,
      lastErrorCode: 'VENUE_HTTP',
      lastErrorMessage: '503',
    } as const
    expect(board.onHealth({ 'watchTrades(0)': retrying })).toEqual([
      'health watchTrades(0): retrying (attempt 2, VENUE_HTTP: 503)',
    ])
    const frame = board.frame(colour, 100, 0)
    expect(frame.find((line) => line.includes('HEALTH'))).toContain(
      'watchTrades <yellow>retrying #2</>',
    )
    expect(frame[1]).toContain('streams 1 retrying')
  })

  it('the request gauge, the sparkline and the columns', () => {
    expect(gauge(0, 10, 10)).toBe('[··········]')
    expect(gauge(6, 10, 10)).toBe('[██████····]')
    expect(gauge(25, 10, 10)).toBe('[██████████]')
    expect(sparkline([1, 2, 3, 2])).toBe('▁▅█▅')
    expect(sparkline([5, 5])).toBe('▄▄')
    expect(sparkline([])).toBe('')
    // Colour codes take no columns: the right column starts at the same place.
    const rows = sideBySide(['\u001b[31mab\u001b[39m', 'abc'], ['x', 'y'], 5)
    expect(rows.map(visibleWidth)).toEqual([8, 8])
    expect(rows[1]).toBe('abc    y')
  })

  it('fits the terminal: full panels when tall, shorter ones when not, never more rows', () => {
    const { board } = boardAfter([snapshot, delta])
    for (let n = 0; n < 12; n += 1) {
      board.onTrade({
        traded_at: 1_700_000_000_000 + n,
        side: 'buy',
        price: '1.0450',
        quantity: '1',
      } as never)
    }
    const tall = board.frame(plain, 100, 0, 60)
    const compact = board.frame(plain, 100, 0, tall.length - 1)
    expect(compact.length).toBeLessThan(tall.length)
    expect(tall.filter((l) => / 1\.0450 +1$/.test(l))).toHaveLength(10)
    expect(compact.filter((l) => / 1\.0450 +1$/.test(l))).toHaveLength(4)
    const tiny = board.frame(plain, 100, 0, 12)
    expect(tiny).toHaveLength(12)
    expect(tiny[0]).toMatch(/^venue-rx demo/)
    expect(tiny[11]).toBe(`(${compact.length} rows show every panel; this terminal has 12)`)
  })
})
