/**
 * `venue-rx demo` (what `npm start` runs) as a person sees it: in a real terminal (tmux,
 * read with capture-pane) and piped.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI_MAIN, cliOutcome, liveCli, runInProcess, startCli, waitForCli } from './helpers/cli.js'
import { openTerminal, type Terminal } from './helpers/tmux.js'

const terminals: Terminal[] = []
afterAll(async () => {
  await Promise.all(terminals.splice(0).map((t) => t.close()))
})

/** Fast settings: a quick market, quick polls. */
const FAST = ['--seed', '1', '--tick-ms', '100', '--poll-ms', '200']

/** The environment of a piped run: whatever colour settings this process has are dropped. */
function plainEnv(): NodeJS.ProcessEnv {
  const { NO_COLOR: _n, FORCE_COLOR: _f, ...rest } = process.env
  return rest
}

describe.concurrent('venue-rx demo', () => {
  it('in a terminal: the first frame before any data, then every panel live, redrawn in place, colours, clean exit on Ctrl-C', async () => {
    const terminal = await openTerminal(110, 45)
    terminals.push(terminal)
    // Everything the demo writes to the terminal, in order, is kept by tmux's pipe-pane
    // (the shell in the pane reaches its own tmux server): frames are redrawn in place, so
    // the screen alone cannot tell which came first.
    const written = join(mkdtempSync(join(tmpdir(), 'venue-rx-demo-')), 'pane.out')
    await terminal.type(
      `tmux pipe-pane -O 'cat > ${written}'; ${process.execPath} ${CLI_MAIN} demo ${FAST.join(' ')} --no-faults; echo "EXIT=$?"`,
    )
    // Every panel filled in: waited for together, as the streams start in any order.
    const panels = [
      /^\* (ask|bid) /m, // a level the last delta changed
      /\d+-\d+-[01] (buy|sell) 0\.0\d @ \d+\.\d+ (rests|crossed)/, // the strategy's order...
      /fill .* (maker|taker)/, // ...and its fill, from watchOrder
      /^.*TRADES watchTrades/m,
      /\d\d:\d\d:\d\d\.\d{3}\s+(buy|sell)\s+\d+\.\d+\s+\d+\.\d+/,
      /MID \d+\.\d+ [▁▂▃▄▅▆▇█]+/,
      /SIGNALS spread \d+\.\d+ bps\s+microprice \d+\.\d+\s+imbalance\(5\) -?\d/,
      /vwap 30s \d+\.\d+\s+flow 30s -?\d/,
      /^.*BALANCES watchBalances/m,
      /CHN\s+\d+\.\d+\s+\d+\.\d+/,
      /FILLS watchFills, \d+ so far/,
      /HEALTH venue\.health .*watchDepth ok/,
      /HEALTH venue\.health .*watchTrades ok/,
      // Each stream's pace from venue.freshness: polls a second, estimated staleness.
      /watchDepth ok +\d+\.\d\/s ~ *\d+ ms/,
    ]
    const screen = await terminal.waitForScreen(
      (s) => panels.every((panel) => panel.test(s)),
      'every panel of the demo on the screen',
      25_000,
    )
    // The header: the requests of the last second against the default budget of 10/s and
    // its burst of 10 more, one gauge cell per request.
    const budget = /requests \[([█·]{10}\|[█·]{10})\] (\d+)\/s: budget 10\/s \+ bursts of 10/.exec(
      screen,
    )
    expect(budget).not.toBeNull()
    const used = Number(budget?.[2])
    expect(used).toBeGreaterThan(0)
    expect(budget?.[1]?.split('').filter((c) => c === '█')).toHaveLength(Math.min(used, 20))
    // The ladder: asks above bids, prices falling down the ladder, the spread between.
    const ladder = [...screen.matchAll(/^[* ] (ask|bid)\s+(\d+\.\d+)\s+(\d+\.\d+)/gm)]
    expect(ladder.length).toBeGreaterThanOrEqual(4)
    const prices = ladder.map((m) => Number(m[2]))
    expect([...prices].sort((a, b) => b - a)).toEqual(prices)
    const sides = ladder.map((m) => m[1])
    expect(sides.indexOf('bid')).toBe(sides.lastIndexOf('ask') + 1)
    expect(screen).toMatch(/spread \d+\.\d+\s+mid \d+\.\d+/)
    // Colours on a terminal: the ladder's ask rows are red and its bid rows green (SGR 31
    // and 32). tmux writes a colour only where it changes, so it is followed from the top.
    const coloured = await terminal.screen({ colours: true })
    const plainText = stripVTControlCharacters(coloured)
    for (const [side, colour] of [
      ['ask', 31],
      ['bid', 32],
    ] as const) {
      const at = plainText.search(new RegExp(`^[* ] ${side} `, 'm'))
      expect(at).toBeGreaterThanOrEqual(0)
      expect(foregroundAt(coloured, at)).toBe(colour)
    }

    await terminal.press('C-c')
    const end = await terminal.waitForScreen((s) => /EXIT=\d+/.test(s), 'the demo to exit', 10_000)
    expect(end).toContain('EXIT=0')
    // Redrawn in place: however many frames, one header in the whole window history,
    // and the last frame stays above the exit line.
    const history = await terminal.history()
    // On failure, what the window holds (with the last frame written) tells why.
    expect(
      history.match(/venue-rx demo {2}simulator/g),
      `the window history:\n${history}\nthe last bytes written:\n${readFileSync(written, 'utf8').slice(-6_000)}`,
    ).toHaveLength(1)
    const shown = end.split('\n')
    expect(shown.findIndex((l) => l.startsWith('Ctrl-C to stop'))).toBeLessThan(
      shown.findIndex((l) => l.includes('EXIT=0')),
    )
    // The first frame is drawn before the simulator and the library are loaded: every
    // panel with what it waits for, no figure yet; the data comes after it.
    const output = stripVTControlCharacters(readFileSync(written, 'utf8'))
    rmSync(dirname(written), { recursive: true, force: true })
    const firstData = output.search(/^[* ] (ask|bid) +\d|^\d\d:\d\d:\d\d\.\d{3} +(buy|sell) /m)
    expect(firstData).toBeGreaterThan(0)
    const before = output.slice(0, firstData)
    for (const placeholder of [
      /^venue-rx demo {2}simulator starting\.\.\. {2}pool 0 {2}\d\d:\d\d:\d\d$/m,
      /^requests - \(no venue yet\)$/m,
      /^streams none yet$/m,
      /^waiting for the first snapshot\.\.\. +no trade yet$/m,
      /^MID - *$/m,
      /^placing the first order\.\.\. +waiting\.\.\.$/m,
      /^no fill yet$/m,
      /^HEALTH venue\.health no stream yet$/m,
    ]) {
      expect(before).toMatch(placeholder)
    }
    expect(output.indexOf('simulator starting...')).toBeLessThan(output.indexOf('simulator http:'))
  }, 40_000)

  it('piped with --seconds: plain lines, no escape codes, ends by itself with the count of requests', async () => {
    const child = startCli(['demo', ...FAST, '--seconds', '1', '--no-faults'], plainEnv())
    const { code, out, err } = await cliOutcome(child)
    expect({ code, err }).toEqual({ code: 0, err: '' })
    expect(out).toBe(stripVTControlCharacters(out))
    const lines = out.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^health /)
    expect(lines.at(-1)).toMatch(/^done {3}\d+ requests in all$/)
  })

  it('in an 80x24 terminal: the title on the first row, every panel and the whole health row, during an outage too', async () => {
    const terminal = await openTerminal(80, 24)
    terminals.push(terminal)
    // An outage (the first 2 s after the start, then every 5 s for 1 s) puts the longest
    // lines on the screen: the fault in the header and a stream retrying on the health row.
    await terminal.type(
      `clear; ${process.execPath} ${CLI_MAIN} demo ${FAST.join(' ')} --outage-every 5; echo "EXIT=$?"`,
    )
    const panels = [
      /^venue-rx demo {2}simulator http:\/\/127\.0\.0\.1:\d+ {2}pool 0 CHN\/USDT {2}\d\d:\d\d:\d\d$/m,
      /^requests \[[█·]{10}\|[█·]{10}\] \d+\/s: budget 10\/s \+ bursts of 10$/m,
      /^streams .*fault: \/api\/v1\/latest-trades\/v2 answers 503$/m,
      /^ORDER BOOK watchDepth.*TRADES watchTrades$/m,
      /^MID \d/m,
      /^SIGNALS spread/m,
      /^DEMO STRATEGY .*BALANCES watchBalances$/m,
      /^\d+-\d+-[01] (buy|sell) 0\.0\d @ \d+\.\d+ /m, // an order of the strategy
      /^FILLS watchFills, \d+ so far +Ctrl-C to stop$/m,
      /^\d\d:\d\d:\d\d\.\d{3} (buy|sell) [\d.]+ @ [\d.]+ (maker|taker), fee /m,
      /^HEALTH venue\.health /m,
      /watchTrades retrying #\d+/,
    ]
    const screen = await terminal.waitForScreen(
      (s) => s.startsWith('venue-rx demo') && panels.every((panel) => panel.test(s)),
      'every panel at 80x24 during an outage, the title on the first row',
      25_000,
    )
    const rows = screen.split('\n')
    // The health row names every stream, none cut: it wraps to a second line instead.
    const health = rows.slice(rows.findIndex((r) => r.startsWith('HEALTH '))).join(' ')
    for (const stream of ['watchDepth', 'watchTrades', 'watchBalances', 'watchFills']) {
      expect(health).toMatch(new RegExp(`${stream} (ok|retrying #\\d+)`))
    }
    expect(screen).not.toContain('rows show every panel')
    expect(screen).not.toContain('…')
    await terminal.press('C-c')
    const end = await terminal.waitForScreen((s) => /EXIT=\d+/.test(s), 'the demo to exit', 10_000)
    expect(end).toContain('EXIT=0')
  }, 40_000)

  it('piped, with its defaults: the first outage of the trades route, the stream retrying, then healed', async () => {
    const cli = liveCli(startCli(['demo'], plainEnv()))
    const index = (test: (line: string) => boolean, after = -1) =>
      cli.lines().findIndex((line, i) => i > after && test(line))
    const fault = () => index((l) => l === 'fault  /api/v1/latest-trades/v2 answers 503 for 2 s')
    const retrying = () =>
      index(
        (l) => /^health watchTrades\(.*\): retrying \(attempt 1, VENUE_SERVER: /.test(l),
        fault(),
      )
    const healed = () => index((l) => /^health watchTrades\(.*\): ok$/.test(l), retrying())
    await waitForCli(
      cli,
      () => fault() >= 0 && retrying() > fault() && healed() > retrying(),
      'an outage, retrying and the recovery',
      15_000,
    )
    cli.interrupt()
    const { code, out, err } = await cli.exited
    expect({ code, err }).toEqual({ code: 0, err: '' })
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^done {3}\d+ requests in all$/)
    expect(out).toContain('fault  /api/v1/latest-trades/v2 answers again')
    // One plain line per event, every kind of them, no escape codes.
    expect(out).toBe(stripVTControlCharacters(out))
    const kinds = new Set(
      out
        .trimEnd()
        .split('\n')
        .map((line) => line.split(' ')[0]),
    )
    for (const kind of ['book', 'trade', 'balance', 'fill', 'order', 'health', 'status', 'done']) {
      expect(kinds, `a "${kind}" line`).toContain(kind)
    }
    // Book events come in seq order, one after the other, from the initial snapshot.
    const books = out.split('\n').filter((l) => l.startsWith('book '))
    expect(books[0]).toMatch(/^book {3}seq 1 snapshot \(initial\)/)
    const seqs = books.map((l) => Number(/seq (\d+)/.exec(l)?.[1]))
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    // Each order is labelled by what happened to it: one that crossed was filled at once as
    // taker, one that rests was filled (if at all) later, as maker.
    const lines = out.split('\n')
    for (const placed of lines.filter((l) => / placed /.test(l))) {
      const [, id, how] = /^order {2}(\S+) placed .* \((crossed|rests|rejected)/.exec(placed) ?? []
      expect(how, placed).toBeDefined()
      const roles = lines
        .filter((l) => l.startsWith(`order  ${id} fill `))
        .map((l) => / (maker|taker) \(/.exec(l)?.[1])
      if (how === 'crossed') expect(roles[0] ?? 'taker', placed).toBe('taker')
      if (how === 'rests')
        expect(
          roles.filter((r) => r !== 'maker'),
          placed,
        ).toEqual([])
    }
  })

  // What the command says, run in this process (the processes above show the binary's).
  it('--help prints the usage and exits 0', async () => {
    const help = await runInProcess(['demo', '--help'], plainEnv()).exited
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: venue-rx demo \[options\]/)
    expect(help.out).toContain('--no-faults')
  })

  it('a stray argument exits 2 with one line', async () => {
    const stray = await runInProcess(['demo', 'now'], plainEnv()).exited
    expect(stray.code).toBe(2)
    expect(stray.err).toBe(
      'venue-rx: demo takes no argument (got "now"); see `venue-rx demo --help`\n',
    )
  })

  it('an unknown pool exits 2 naming the pools there are', async () => {
    const pool = await runInProcess(['demo', '--pool', '99'], plainEnv()).exited
    expect(pool.code).toBe(2)
    expect(pool.err).toMatch(/^venue-rx: no pool 99 on the simulator \(its pools: 0, 1, /)
    expect(pool.err.split('\n')).toHaveLength(2) // one line
  })
})

/**
 * The foreground colour (SGR 30 to 37) in force at the `index`-th visible character of
 * `text`, following its SGR sequences from the start; `undefined` for the default.
 */
function foregroundAt(text: string, index: number): number | undefined {
  const ESC = String.fromCharCode(27)
  const sgr = new RegExp(`${ESC}\\[([\\d;]*)m`, 'y')
  let colour: number | undefined
  let visible = 0
  for (let at = 0; at < text.length && visible <= index; ) {
    sgr.lastIndex = at
    const match = sgr.exec(text)
    if (match === null) {
      if (visible === index) return colour
      visible += 1
      at += 1
      continue
    }
    const codes = (match[1] ?? '').split(';').map(Number)
    for (let k = 0; k < codes.length; k += 1) {
      const code = codes[k] as number
      if (code === 0 || code === 39) colour = undefined
      else if (code >= 30 && code <= 37) colour = code
      else if (code === 38) k += codes[k + 1] === 5 ? 2 : 4
    }
    at += match[0].length
  }
  return colour
}
