/**
 * How the commands end when something is off, as a person sees it in a terminal (tmux):
 * a reader that stops early (`| head`), a usage error, a busy port. Never a stack trace;
 * a closed pipe ends quietly with exit code 0, a usage error is one line naming the
 * command's `--help` (exit 2), a runtime failure one line with a hint (exit 1).
 */
import { describe, expect, it } from 'vitest'
import { CLI_MAIN, type CliOutcome, runInProcess } from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'
import { heldPort } from './helpers/ports.js'
import { openTerminal, type Terminal } from './helpers/tmux.js'

const fixture = cliFixture('venue-rx-exits-')

/** The CLI as the shell in the terminal runs it. */
const CLI = `${process.execPath} ${CLI_MAIN}`

/**
 * Runs `command` in the terminal between two markers and resolves to the lines it printed
 * (stdout and stderr as the screen shows them) and its exit code, read from the screen.
 */
async function onScreen(
  terminal: Terminal,
  n: number,
  command: string,
): Promise<{ lines: string[]; code: number }> {
  await terminal.type(`clear; echo BEGIN-${n}; ${command}; echo "END-${n}=$?"`)
  const end = new RegExp(`^END-${n}=(\\d+)$`, 'm')
  const screen = await terminal.waitForScreen((s) => end.test(s), `command ${n} to end`, 15_000)
  const rows = screen.split('\n')
  const from = rows.indexOf(`BEGIN-${n}`)
  const to = rows.findIndex((row) => end.test(row))
  return {
    lines: rows.slice(from + 1, to).filter((row) => row !== ''),
    code: Number(end.exec(screen)?.[1]),
  }
}

/** A stack trace's frame line, or Node's pointer at the throwing line. */
const STACK = /^\s+at |node:internal|^\s*\^$/m

// Each look at the screen may wait 15 s for its command on a loaded machine, and a test
// runs up to three of them: the test's own bound is their sum, not the default 20 s.
describe.concurrent('how the commands end', { timeout: 60_000 }, () => {
  it('demo and watch piped into head: the first lines, then exit 0 without a word more', async () => {
    const sim = await fixture.simulator()
    const ticking = setInterval(() => sim.advance(1), 20)
    const terminal = await openTerminal(160, 20)
    try {
      // `{ ...; echo $? >&2; } | head`: the exit code is the command's, not head's.
      const demo = await onScreen(
        terminal,
        1,
        `{ ${CLI} demo --tick-ms 100 --poll-ms 200; echo "CODE=$?" >&2; } | head -3`,
      )
      const event = /^(health|book|trade|balance|fill|order|signal|status|fault) {1,3}\S/
      expect(demo.lines.slice(0, 3)).toEqual([
        expect.stringMatching(event),
        expect.stringMatching(event),
        expect.stringMatching(event),
      ])
      expect(demo.lines.slice(3)).toEqual(['CODE=0'])
      const watch = await onScreen(
        terminal,
        2,
        `{ ${CLI} watch book --poll-ms 20 --base-url ${sim.url}; echo "CODE=$?" >&2; } | head -2`,
      )
      expect(watch.lines).toHaveLength(3)
      expect(watch.lines[2]).toBe('CODE=0')
      for (const { lines } of [demo, watch]) expect(lines.join('\n')).not.toMatch(STACK)
    } finally {
      clearInterval(ticking)
      await terminal.close()
    }
  })

  it('a bad flag, a bad value and a busy port: one line each on the screen', async () => {
    const busy = await heldPort()
    const port = busy.port
    const terminal = await openTerminal(160, 20)
    try {
      expect(await onScreen(terminal, 1, `${CLI} simulate --port abc`)).toEqual({
        lines: [
          'venue-rx: --port must be a whole number from 0 to 65535 (got abc); see `venue-rx simulate --help`',
        ],
        code: 2,
      })
      expect(await onScreen(terminal, 2, `${CLI} demo --bogus`)).toEqual({
        lines: ['venue-rx: unknown option --bogus; see `venue-rx demo --help`'],
        code: 2,
      })
      // A negative number is the option's value, refused by the option's own check...
      expect(await onScreen(terminal, 4, `${CLI} demo --pool -1`)).toEqual({
        lines: [
          'venue-rx: --pool must be a whole number from 0 to 1000000 (got -1); see `venue-rx demo --help`',
        ],
        code: 2,
      })
      // ...and a misspelt option is named with the closest one.
      expect(await onScreen(terminal, 5, `${CLI} demo --pol 1`)).toEqual({
        lines: [
          'venue-rx: unknown option --pol (did you mean --pool?); see `venue-rx demo --help`',
        ],
        code: 2,
      })
      expect(await onScreen(terminal, 3, `${CLI} simulate --port ${port}`)).toEqual({
        lines: [
          `venue-rx: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another with --port (--port 0 takes a free one)`,
        ],
        code: 1,
      })
    } finally {
      await terminal.close()
      await busy.release()
    }
  })

  it('every command: a usage error is one line naming its own --help, exit 2', async () => {
    const cases: [args: string[], line: string][] = [
      [['frobnicate'], 'unknown command "frobnicate"; see `venue-rx --help`'],
      [['wacth', 'book'], 'unknown command "wacth" (did you mean watch?); see `venue-rx --help`'],
      [['demo', 'now', 'please'], 'demo takes no argument (got "now", "please"); see'],
      [['watch', 'boook'], 'watch: unknown stream "boook" (did you mean book?); see'],
      [
        ['watch', 'book', '--pool', '-1'],
        '--pool must be a whole number from 0 to 2147483647 (got -1)',
      ],
      [
        ['relay', '--prefix', '-x'],
        '--prefix needs a value (one that starts with "-" is written --prefix=VALUE)',
      ],
      [['demo', '--bogus'], 'unknown option --bogus; see `venue-rx demo --help`'],
      [['demo', '--seconds', 'soon'], '(got soon); see `venue-rx demo --help`'],
      [['simulate', '--port'], '--port needs a value; see `venue-rx simulate --help`'],
      [['simulate', '--port', 'abc'], '(got abc); see `venue-rx simulate --help`'],
      [['watch', 'book', '--json=yes'], '--json takes no value; see `venue-rx watch --help`'],
      [['watch', 'book', '--count', 'x'], '(got x); see `venue-rx watch --help`'],
      [['watch', 'order', 'abc'], 'is no order id: '],
      [['export', 'trades', '--bogus'], 'unknown option --bogus; see `venue-rx export --help`'],
      [['export', 'trades', '--out', 'x.txt', '--checkpoint', 'c.json'], '.ndjson or .csv'],
      [['relay', '--bogus'], 'unknown option --bogus; see `venue-rx relay --help`'],
      [['relay', '--streams', 'depth:0'], '--redis is required'],
      // A stream name is quoted whole, however long.
      [
        [
          'relay',
          '--redis',
          'redis://127.0.0.1:1',
          '--streams',
          `depth:0,klines:0:${'9'.repeat(40)}m`,
        ],
        `unknown stream "klines:0:${'9'.repeat(40)}m" (streams: `,
      ],
    ]
    // Run in this process: the exit code is the one the binary exits with (as the terminal
    // test above shows for a few of them).
    const outcomes: CliOutcome[] = await Promise.all(
      cases.map(([args]) => runInProcess(args).exited),
    )
    for (const [i, [args, line]] of cases.entries()) {
      const { code, out, err } = outcomes[i] as CliOutcome
      const command = ['frobnicate', 'wacth'].includes(args[0] ?? '') ? '' : ` ${args[0]}`
      expect({ args, code, out }).toEqual({ args, code: 2, out: '' })
      expect(err, args.join(' ')).toMatch(
        new RegExp(`^venue-rx: [^\\n]+; see \`venue-rx${command} --help\`\\n$`),
      )
      expect(err, args.join(' ')).toContain(line)
    }
  })
})
