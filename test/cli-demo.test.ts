/**
 * `venue-rx demo` (what `npm start` runs) as a person sees it: in a real terminal (tmux,
 * read with capture-pane) and piped.
 */
import { stripVTControlCharacters } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI_MAIN, cliOutcome, startCli } from './helpers/cli.js'
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
  it('in a terminal: every panel live, redrawn in place, colours, clean exit on Ctrl-C', async () => {
    const terminal = await openTerminal(110, 45)
    terminals.push(terminal)
    await terminal.type(
      `${process.execPath} ${CLI_MAIN} demo ${FAST.join(' ')} --no-faults; echo "EXIT=$?"`,
    )
    // Every panel filled in: waited for together, as the streams start in any order.
    const panels = [
      /^\* (ask|bid) /m, // a level the last delta changed
      /placed (buy|sell)/, // the demo strategy's order...
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
    ]
    const screen = await terminal.waitForScreen(
      (s) => panels.every((panel) => panel.test(s)),
      'every panel of the demo on the screen',
      25_000,
    )
    // The header: the requests of the last second against the default budget of 10/s,
    // one gauge cell per request a second.
    const budget = /requests \[([█·]{10})\] (\d+)\/s of 10\/s budget/.exec(screen)
    expect(budget).not.toBeNull()
    const used = Number(budget?.[2])
    expect(used).toBeGreaterThan(0)
    expect(budget?.[1]?.split('').filter((c) => c === '█')).toHaveLength(Math.min(used, 10))
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
    expect(history.match(/venue-rx demo {2}simulator/g)).toHaveLength(1)
    const shown = end.split('\n')
    expect(shown.findIndex((l) => l.startsWith('Ctrl-C to stop'))).toBeLessThan(
      shown.findIndex((l) => l.includes('EXIT=0')),
    )
  })

  it('piped: one plain line per event, no escape codes, ends by itself', async () => {
    const child = startCli(['demo', ...FAST, '--seconds', '4', '--no-faults'], plainEnv())
    const { code, out, err } = await cliOutcome(child)
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(out).toBe(stripVTControlCharacters(out))
    const lines = out.trimEnd().split('\n')
    const kinds = new Set(lines.map((line) => line.split(' ')[0]))
    for (const kind of ['book', 'trade', 'balance', 'fill', 'order', 'health', 'status', 'done']) {
      expect(kinds, `a "${kind}" line`).toContain(kind)
    }
    expect(lines[0]).toMatch(/^health /)
    expect(lines.find((l) => l.startsWith('book '))).toMatch(/^book {3}seq 1 snapshot \(initial\)/)
    // Book events come in seq order, one after the other.
    const seqs = lines
      .filter((l) => l.startsWith('book '))
      .map((l) => Number(/seq (\d+)/.exec(l)?.[1]))
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    expect(lines.at(-1)).toMatch(/^done {3}\d+ requests in all$/)
  })

  it('piped with faults: the health board reports the outage and the recovery', async () => {
    // One outage a second (for 0.2 s) instead of every 20 s.
    const child = startCli(['demo', ...FAST, '--seconds', '3', '--outage-every', '1'], plainEnv())
    const { code, out } = await cliOutcome(child)
    expect(code).toBe(0)
    const lines = out.split('\n')
    const fault = lines.findIndex((l) =>
      l.startsWith('fault  /api/v1/latest-trades/v2 answers 503'),
    )
    expect(fault).toBeGreaterThanOrEqual(0)
    const retrying = lines.findIndex((l) =>
      /^health watchTrades\(.*\): retrying \(attempt 1, VENUE_/.test(l),
    )
    expect(retrying).toBeGreaterThan(fault)
    const healed = lines.findIndex(
      (l, i) => i > retrying && /^health watchTrades\(.*\): ok$/.test(l),
    )
    expect(healed).toBeGreaterThan(retrying)
  })

  it('--help, a stray argument and an unknown pool', async () => {
    const help = await cliOutcome(startCli(['demo', '--help'], plainEnv()))
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: venue-rx demo \[options\]/)
    expect(help.out).toContain('--no-faults')
    const stray = await cliOutcome(startCli(['demo', 'now'], plainEnv()))
    expect(stray.code).toBe(2)
    expect(stray.err).toMatch(/^venue-rx: demo takes no argument \(got "now"\)/)
    const pool = await cliOutcome(startCli(['demo', '--pool', '99'], plainEnv()))
    expect(pool.code).toBe(2)
    expect(pool.err).toMatch(/^venue-rx: no pool 99 on the simulator \(its pools: 0, 1, /)
    expect(pool.err).not.toMatch(/\n\s+at /)
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
