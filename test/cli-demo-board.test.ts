/** The demo's board: what each stream event shows, rendered without colours. */
import { createLogUpdate } from 'log-update'
import { describe, expect, it } from 'vitest'
import { DemoBoard, gauge, liveScreen } from '../src/cli/demo-board.js'
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
  const board = new DemoBoard('test', 10, 10)
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
    const board = new DemoBoard('test', 10, 10)
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
    expect(frame[2]).toContain('streams 1 retrying')
  })

  it('the request gauge: the budget, then its burst after the bar; the sparkline; the columns', () => {
    expect(gauge(0, 10, 10, 10)).toBe('[··········|··········]')
    expect(gauge(6, 10, 10, 10)).toBe('[██████····|··········]')
    expect(gauge(12, 10, 10, 10)).toBe('[██████████|██········]')
    expect(gauge(25, 10, 10, 10)).toBe('[██████████|██████████]')
    expect(gauge(50, 100, 100, 10)).toBe('[█████·····|··········]') // a cell is 10 requests
    expect(sparkline([1, 2, 3, 2])).toBe('▁▅█▅')
    expect(sparkline([5, 5])).toBe('▄▄')
    expect(sparkline([])).toBe('')
    // Colour codes take no columns: the right column starts at the same place.
    const rows = sideBySide(['\u001b[31mab\u001b[39m', 'abc'], ['x', 'y'], 5)
    expect(rows.map(visibleWidth)).toEqual([8, 8])
    expect(rows[1]).toBe('abc    y')
  })

  it('fits the terminal in one row fewer than it has: full panels when tall, shorter ones when not', () => {
    const { board } = boardAfter([snapshot, delta])
    for (let n = 0; n < 12; n += 1) {
      board.onTrade({
        traded_at: 1_700_000_000_000 + n,
        side: 'buy',
        price: '1.0450',
        quantity: '1',
      } as never)
    }
    // log-update keeps the cursor on the line below the frame: a frame of every row
    // would scroll the title away.
    const tall = board.frame(plain, 100, 0, 60)
    expect(tall.length).toBeLessThan(60)
    const compact = board.frame(plain, 100, 0, tall.length)
    expect(compact.length).toBeLessThan(tall.length)
    expect(tall.filter((l) => / 1\.0450 +1$/.test(l))).toHaveLength(10)
    expect(compact.filter((l) => / 1\.0450 +1$/.test(l))).toHaveLength(4)
    const small = board.frame(plain, 80, 0, 24)
    expect(small.length).toBeLessThanOrEqual(23)
    expect(small[0]).toMatch(/^venue-rx demo/)
    expect(small.some((l) => l.startsWith('HEALTH '))).toBe(true)
    const tiny = board.frame(plain, 100, 0, 12)
    expect(tiny).toHaveLength(11)
    expect(tiny[0]).toMatch(/^venue-rx demo/)
    const needed = Number(
      /^\((\d+) rows show every panel; this terminal has 12\)$/.exec(tiny[10] ?? '')?.[1],
    )
    const enough = board.frame(plain, 100, 0, needed)
    expect(enough.some((l) => l.startsWith('HEALTH '))).toBe(true)
    expect(board.frame(plain, 100, 0, needed - 1).at(-1)).toMatch(/rows show every panel/)
  })

  it('the header shows the requests against the budget and its burst', () => {
    const board = new DemoBoard('test', 10, 10)
    board.requestsPerSecond = 12
    expect(board.frame(plain, 100, 0)[1]).toBe(
      'requests [██████████|██········] 12/s: budget 10/s + bursts of 10',
    )
    expect(board.summary()).toMatch(/^status requests 12\/s \(budget 10\/s \+ bursts of 10\), /)
  })

  it("shows a stream's staleness as a plain - until its first answer measures one", () => {
    const board = new DemoBoard('test', 10, 10)
    const depth = 'watchDepth({"pool_id":0})'
    const trades = 'watchTrades(0,{"source":"v2"})'
    board.health = { [depth]: { state: 'ok' }, [trades]: { state: 'ok' } } as never
    board.freshness = {
      [depth]: { pollsPerSecond: 2, changesPerSecond: 0, priority: 'normal' },
      [trades]: { pollsPerSecond: 4.13, changesPerSecond: 1, stalenessMs: 95, priority: 'normal' },
    }
    const health = board.frame(plain, 120, 0).find((line) => line.startsWith('HEALTH ')) ?? ''
    // The same width either way (16 columns after the state): the row wraps the same.
    expect(health).toBe(
      'HEALTH venue.health  watchDepth ok  2.0/s         -  watchTrades ok  4.1/s ~   95 ms',
    )
    expect(board.summary()).toContain('polls watchDepth 2.0/s -; watchTrades 4.1/s ~95 ms')
  })

  it('labels a placed order by what happened to it at placement', () => {
    const board = new DemoBoard('test', 10, 10)
    const order = { side: 'buy', amount: '0.03', price: '1.0460', level: 'ask' } as const
    const placed = (record: { status: number; executed: string } | undefined) =>
      board.onPlaced(0, '0-7-0', { ...order, record })
    expect(placed({ status: 2, executed: '0.0300' })).toBe(
      'order  0-7-0 placed buy 0.03 @ 1.0460 (crossed the ask, filled at once)',
    )
    expect(placed({ status: 1, executed: '0.0100' })).toBe(
      'order  0-7-0 placed buy 0.03 @ 1.0460 (crossed the ask, 0.01 filled at once, 0.02 rests)',
    )
    expect(placed({ status: 0, executed: '0.0000' })).toBe(
      'order  0-7-0 placed buy 0.03 @ 1.0460 (rests at the ask)',
    )
    expect(placed({ status: 4, executed: '0.0000' })).toBe(
      'order  0-7-0 placed buy 0.03 @ 1.0460 (rejected)',
    )
    expect(placed(undefined)).toBe('order  0-7-0 placed buy 0.03 @ 1.0460 (at the ask)')
    // The panel's few words, newest first.
    const panel = board.frame(plain, 100, 0).filter((l) => l.includes('0-7-0'))
    expect(panel.map((l) => /0-7-0 (.*?)(\s{2,}|$)/.exec(l)?.[1])).toEqual([
      'buy 0.03 @ 1.0460 at ask',
      'buy 0.03 @ 1.0460 rejected',
      'buy 0.03 @ 1.0460 rests',
      'buy 0.03 @ 1.0460 crossed, 0.02 rests',
      'buy 0.03 @ 1.0460 crossed, filled',
    ])
  })
})

describe('the frame on a terminal', () => {
  it('keeps its title on the first row when an entry holds a line break (an error message)', () => {
    const board = new DemoBoard('simulator http://127.0.0.1:1  pool 0', 10, 10)
    board.onStrategyError(1_700_000_000_000, 'placeOrder: the venue said\nno\r\nand more')
    const frame = board.frame(plain, 100, 1_700_000_000_000, 40)
    // What log-update counts: the line breaks of the joined frame.
    const rows = frame.join('\n').split('\n')
    expect(rows.length).toBeLessThanOrEqual(39)
    expect(rows[0]).toMatch(/^venue-rx demo {2}simulator/)
    expect(frame.every((line) => !/[\r\n]/.test(line))).toBe(true)
  })
})

describe('liveScreen: frames log-update redraws in place', () => {
  /**
   * A terminal of `rows` rows that follows only its cursor's row through what log-update
   * writes: a line feed moves it down (scrolling at the bottom row), CSI n A and n B move
   * it up and down; nothing else moves it (the frames are narrower than the terminal).
   */
  /** A CSI sequence (its count and final letter), or a line feed. */
  const CONTROL = new RegExp(`${String.fromCharCode(27)}\\[\\??(\\d*)([A-Za-z])|(\n)`, 'g')

  function cursorTerminal(rows: number) {
    let row = 0
    const stream = {
      isTTY: false,
      rows,
      columns: 80,
      write(text: string) {
        for (const [, n, move, feed] of text.matchAll(CONTROL)) {
          if (feed !== undefined) row = Math.min(rows - 1, row + 1)
          else if (move === 'A') row = Math.max(0, row - Number(n || 1))
          else if (move === 'B') row = Math.min(rows - 1, row + Number(n || 1))
        }
        return true
      },
    }
    return { stream, row: () => row }
  }

  // The last line a patch changes is an empty line of the next frame.
  const before = ['TITLE', 'a', 'b', 'c']
  const after = ['TITLE', 'a2', '', 'c']

  it('pads to the rows less one and writes no empty line', () => {
    expect(liveScreen(after, 8).split('\n')).toEqual(['TITLE', 'a2', ' ', 'c', ' ', ' ', ' '])
  })

  it('leaves the cursor where the next patch expects it, below the frame', () => {
    const terminal = cursorTerminal(12)
    const screen = createLogUpdate(terminal.stream as unknown as NodeJS.WriteStream)
    screen(liveScreen(before, 12))
    const below = terminal.row()
    screen(liveScreen(after, 12))
    expect(terminal.row()).toBe(below)
    screen(liveScreen(before, 12))
    expect(terminal.row()).toBe(below)
  })

  it('(why: with the empty line as it is, log-update leaves the cursor a row too high)', () => {
    const terminal = cursorTerminal(12)
    const screen = createLogUpdate(terminal.stream as unknown as NodeJS.WriteStream)
    const padded = (frame: string[]) => [...frame, ...Array(11 - frame.length).fill('')].join('\n')
    screen(padded(before))
    const below = terminal.row()
    screen(padded(after))
    expect(terminal.row()).toBe(below - 1)
  })
})
