/**
 * `venue-rx watch` and `venue-rx export`, run in this process with streams of their own,
 * against simulators on a manual clock started here. The trades table is read from a real
 * terminal, the CLI there a child process: tmux (required, as for a person at a terminal).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CLI_MAIN,
  type CliOutcome,
  cliEnv,
  closedPort,
  quickFeeds,
  runInProcess,
} from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'
import { openTerminal } from './helpers/tmux.js'

const fixture = cliFixture('venue-rx-cli-')
const simulator = fixture.simulator

/** Runs the CLI in this process to its end: exit code, stdout, stderr. */
async function cli(
  args: readonly string[],
  options: { key?: string; whileRunning?: () => void } = {},
): Promise<CliOutcome> {
  const run = runInProcess(quickFeeds(args), cliEnv(options.key))
  const ticking = options.whileRunning && setInterval(options.whileRunning, 10)
  try {
    return await run.exited
  } finally {
    if (ticking) clearInterval(ticking)
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '')

describe.concurrent('venue-rx watch', () => {
  it('book --json --count 3: three NDJSON lines, a snapshot first, decimals as strings', async () => {
    const sim = await simulator()
    const { code, out, err } = await cli(
      ['watch', 'book', '--json', '--count', '3', '--poll-ms', '20', '--base-url', sim.url],
      { whileRunning: () => sim.advance(1) },
    )
    expect(err).toBe('')
    expect(code).toBe(0)
    const events = lines(out).map((line) => JSON.parse(line))
    expect(events).toHaveLength(3)
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'delta', 'delta'])
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3])
    expect(events[0].bids[0]).toEqual([expect.stringMatching(/^\d+\.\d+$/), expect.any(String)])
  })

  it('trades: a readable table in a terminal (tmux capture-pane)', async () => {
    const sim = await simulator()
    const terminal = await openTerminal(120, 30)
    try {
      await terminal.type(
        `${process.execPath} ${CLI_MAIN} watch trades --count 5 --base-url ${sim.url}; echo "EXIT=$?"`,
      )
      const screen = await terminal.waitForScreen(
        (s) => /EXIT=\d+/.test(s),
        'the watch to end in tmux',
        15_000,
      )
      expect(screen).toContain('EXIT=0')
      const shown = lines(screen)
      const header = shown.findIndex((line) => /^time\s+side\s+price\s+quantity$/.test(line))
      expect(header).toBeGreaterThanOrEqual(0)
      const rows = shown.slice(header + 1, header + 6)
      for (const row of rows) {
        expect(row).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+(buy|sell)\s+\d+\.\d+\s+\d+\.\d+$/)
      }
      expect(shown[header + 6]).toBe('EXIT=0')
    } finally {
      await terminal.close()
    }
  })

  it('a refused connection: one line with the hint, exit 1', async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}`
    const { code, out, err } = await cli(['watch', 'book', '--count', '1', '--base-url', url])
    expect(code).toBe(1)
    expect(out).toBe('')
    expect(lines(err)).toHaveLength(1)
    expect(err).toContain(`is the venue running at ${url}?`)
    expect(err).not.toMatch(/\n\s+at /)
  })

  it('my-trades without VENUE_API_KEY: the hint, exit 1', async () => {
    const sim = await simulator(0)
    const { code, out, err } = await cli(['watch', 'my-trades', '--base-url', sim.url])
    expect(code).toBe(1)
    expect(out).toBe('')
    expect(lines(err)).toHaveLength(1)
    expect(err).toContain('set VENUE_API_KEY')
  })

  // More usage errors of every command: test/cli-exits.test.ts, on a terminal.
  it("bad arguments exit 2 with one line naming the command's --help", async () => {
    const cases = [
      ['watch'],
      ['watch', 'orderbook'],
      ['watch', 'order'],
      ['watch', 'book', '--frobnicate'],
      ['export', 'trades', '--out', 'x.csv'],
    ]
    const results = await Promise.all(cases.map((args) => cli(args)))
    for (const [i, { code, out, err }] of results.entries()) {
      expect({ args: cases[i], code }).toEqual({ args: cases[i], code: 2 })
      expect(out).toBe('')
      expect(err).toMatch(/^venue-rx: [^\n]+; see `venue-rx (watch|export) --help`\n$/)
      expect(err).toContain(`venue-rx ${cases[i]?.[0]} --help`)
    }
  })
})

describe.concurrent('venue-rx export', () => {
  it('trades to NDJSON, twice: every trade of the account exactly once', async () => {
    const sim = await simulator(40)
    const out = join(fixture.dir(), 'trades.ndjson')
    const checkpoint = join(fixture.dir(), 'trades.cursor.json')
    const args = [
      'export',
      'trades',
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--base-url',
      sim.url,
    ]
    const first = await cli(args, { key: sim.apiKey })
    expect(first.code).toBe(0)
    expect(first.err).toMatch(/\d+ items?, \d+\/s/)
    const afterFirst = lines(await readFile(out, 'utf8')).length
    sim.advance(60)
    const second = await cli(args, { key: sim.apiKey })
    expect(second.code).toBe(0)
    const third = await cli(args, { key: sim.apiKey }) // nothing new: nothing appended

    expect(third.code).toBe(0)
    const written = lines(await readFile(out, 'utf8')).map((line) => JSON.parse(line))
    const truth = sim.market.account(sim.apiKey)?.trades() ?? []
    expect(afterFirst).toBeGreaterThan(0)
    expect(truth.length).toBeGreaterThan(afterFirst)
    expect(written.map((t) => t.global_seq)).toEqual(truth.map((t) => String(t.global_seq)))
    expect(written.map((t) => t.price)).toEqual(truth.map((t) => t.price))
    expect(JSON.parse(await readFile(checkpoint, 'utf8'))).toEqual({
      cursor: String(truth.at(-1)?.global_seq),
    })
  })

  it('transfers to CSV, twice: one header line, each transfer once', async () => {
    const sim = await simulator(40)
    const out = join(fixture.dir(), 'transfers.csv')
    const checkpoint = join(fixture.dir(), 'transfers.cursor.json')
    const args = ['export', 'transfers', '--out', out, '--checkpoint', checkpoint]
    const first = await cli([...args, '--base-url', sim.url], { key: sim.apiKey })
    expect(first.code).toBe(0)
    sim.advance(200)
    const second = await cli([...args, '--base-url', sim.url], { key: sim.apiKey })
    expect(second.code).toBe(0)
    const [header, ...rows] = lines(await readFile(out, 'utf8'))
    expect(header).toBe('amount,contract,symbol,from,to,tx_id,side,sid,name,created_at')
    expect(rows.filter((row) => row === header)).toEqual([])
    const truth = sim.market.account(sim.apiKey)?.transfers() ?? []
    expect(rows.map((row) => row.split(',')[7])).toEqual(truth.map((t) => String(t.sid)))
  })
})
