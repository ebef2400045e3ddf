/**
 * `venue-rx record`: as a person sees it in a terminal (tmux), its lines on a pipe, the
 * journal it leaves, and its exit codes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { UsageError } from '../src/cli/args.js'
import { PIPE_LINE_MS, progressOf, recordCommand } from '../src/cli/record-command.js'
import { type JournalAnswer, openJournalReader } from '../src/replay/journal.js'
import { CLI_MAIN, type CliOutcome, cliEnv, cliOutcome, startCli, testIo } from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'
import { openTerminal } from './helpers/tmux.js'

const fixture = cliFixture('venue-rx-cli-record-')
const { children } = fixture

async function cli(args: readonly string[], key?: string): Promise<CliOutcome> {
  const child = startCli(args, cliEnv(key))
  children.push(child)
  return cliOutcome(child)
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '')

async function answersOf(file: string): Promise<JournalAnswer[]> {
  const answers: JournalAnswer[] = []
  for await (const answer of await openJournalReader(file)) answers.push(answer)
  return answers
}

const SUMMARY =
  /^recorded (\d+) answers in \d+\.\d s to (\S+): [\d.]+ k?B, [\d.]+% of the answers' JSON \([\d.]+ [kM]?B\)$/

describe.concurrent('venue-rx record', () => {
  it('records the embedded simulator in a terminal: one progress line redrawn, then the summary', async () => {
    const file = join(fixture.dir(), 'terminal.journal')
    const terminal = await openTerminal(220, 30)
    try {
      await terminal.type(
        `${process.execPath} ${CLI_MAIN} record ${file} --seconds 3 --poll-ms 100 --streams depth:0,trades:0,my-trades,balances; echo "EXIT=$?"`,
      )
      const running = await terminal.waitForScreen(
        (s) => /recording \S+: \d+ s left, [1-9]\d* answers, [1-9][\d.]* k?B/.test(s),
        'the progress line with answers and bytes',
      )
      // One line, redrawn in place: never two progress lines on the screen.
      expect(lines(running).filter((line) => line.includes(' s left,'))).toHaveLength(1)
      const screen = await terminal.waitForScreen((s) => /EXIT=\d+/.test(s), 'the record to end')
      expect(screen).toContain('EXIT=0')
      // The progress line is gone; the summary stays.
      expect(screen).not.toContain(' s left,')
      const summary = lines(screen).find((line) => line.startsWith('recorded '))
      expect(summary).toMatch(SUMMARY)
      const answers = await answersOf(file)
      expect(summary).toContain(`recorded ${answers.length} answers`)
      const paths = new Set(answers.map((answer) => answer.request.split('?')[0] ?? ''))
      expect(paths).toContain('/api/v1/ping')
      expect([...paths].some((path) => path.includes('depth'))).toBe(true)
      expect([...paths].some((path) => path.includes('balances'))).toBe(true)
      expect([...paths].some((path) => path.includes('trades'))).toBe(true)
    } finally {
      await terminal.close()
    }
  })

  it('records a venue by --base-url with VENUE_API_KEY: on a pipe, whole lines only (a run shorter than the 5 s period prints the summary alone), the key in no byte of the journal', async () => {
    const sim = await fixture.simulator()
    const file = join(fixture.dir(), 'pipe.journal')
    const { code, out, err } = await cli(
      [
        'record',
        file,
        '--seconds',
        '2',
        '--poll-ms',
        '50',
        '--streams',
        'depth:1,fills',
        '--base-url',
        sim.url,
      ],
      sim.apiKey,
    )
    expect(code).toBe(0)
    expect(out).toBe('')
    const printed = lines(err)
    expect(printed.at(-1)).toMatch(SUMMARY)
    // No redrawn line on a pipe: a 2 s run, shorter than the period, prints the summary only.
    expect(printed).toHaveLength(1)
    expect(err).not.toContain('\r')
    const answers = await answersOf(file)
    expect(answers.length).toBeGreaterThan(2)
    const reader = await openJournalReader(file)
    expect(reader.header.baseUrl).toBe(sim.url)
    await reader.close()
    expect(
      answers.some(
        (answer) => answer.request.includes('/fills') || answer.request.includes('trades'),
      ),
    ).toBe(true)
    const bytes = await readFile(file)
    expect(gunzipSync(bytes).toString('utf8').includes(sim.apiKey)).toBe(false)
    expect(bytes.includes(sim.apiKey)).toBe(false)
  })

  it('refuses a command line it cannot run: one line, exit 2', async () => {
    const file = join(fixture.dir(), 'never.journal')
    // As a person sees it: one line naming the command's --help, exit 2, nothing on stdout.
    const shown: [string[], RegExp][] = [
      [['record'], /the journal FILE is required/],
      [
        ['record', file, '--streams', 'my-trades', '--base-url', 'http://127.0.0.1:1'],
        /my-trades is of the account and needs an API key/,
      ],
    ]
    for (const [args, problem] of shown) {
      const { code, out, err } = await cli(args)
      expect({ args, code, out }).toEqual({ args, code: 2, out: '' })
      expect(lines(err), args.join(' ')).toHaveLength(1)
      expect(err, args.join(' ')).toMatch(problem)
      expect(err).toContain('see `venue-rx record --help`')
    }
    // The other checks, in this process: each is a UsageError before anything runs (the
    // line and the exit code are main's, as above).
    const refused: [string[], RegExp][] = [
      [[file], /--streams is required/],
      [[file, '--streams', 'depz:0'], /record: unknown stream "depz:0"/],
      [[file, '--streams', 'depth:0,depth:0'], /named twice/],
      [[file, '--streams', 'depth:0', '--seconds', '0'], /--seconds must be a whole number from 1/],
      [[file, '--streams', 'depth:0', '--seconds', 'ten'], /--seconds must be a whole number/],
      [[file, 'other', '--streams', 'depth:0'], /unexpected argument "other"/],
      [[file, '--streams', 'depth:0', '--secs', '3'], /unknown option --secs/],
      [
        [file, '--streams', 'depth:0', '--base-url', 'ftp://x'],
        /--base-url must be an http\(s\) URL/,
      ],
    ]
    for (const [args, problem] of refused) {
      const error = await recordCommand(args, testIo().io).then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      expect(error, args.join(' ')).toBeInstanceOf(UsageError)
      expect(String((error as Error).message), args.join(' ')).toMatch(problem)
    }
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' })
    const help = await cli(['record', '--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('Usage: venue-rx record FILE')
  })

  it('a venue it cannot reach: one line, exit 1, no summary', async () => {
    const file = join(fixture.dir(), 'unreachable.journal')
    const { code, err } = await cli([
      'record',
      file,
      '--seconds',
      '1',
      '--streams',
      'depth:0',
      '--base-url',
      'http://127.0.0.1:1',
    ])
    expect(code).toBe(1)
    expect(lines(err)).toHaveLength(1)
    expect(err).toMatch(/cannot reach the venue/)
  })
})

describe('venue-rx record: the progress line', () => {
  it('is not drawn again when the file size asked for before the stop comes after it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const { io, err } = testIo()
      let answer: (size: number) => void = () => undefined
      const progress = progressOf(
        { file: 'x.journal', seconds: 30 },
        () => 7,
        performance.now(),
        io.stderr,
        () =>
          new Promise<number>((resolve) => {
            answer = resolve
          }),
      )
      // A line is due: its size is asked for, and comes once the command has stopped.
      vi.advanceTimersByTime(PIPE_LINE_MS)
      progress.stop()
      answer(2048)
      await new Promise((resolve) => setImmediate(resolve))
      expect(err()).toBe('')
      // While it runs, the same answer draws the line.
      const { io: running, err: drawn } = testIo()
      const live = progressOf(
        { file: 'y.journal', seconds: 30 },
        () => 7,
        performance.now(),
        running.stderr,
        async () => 2048,
      )
      vi.advanceTimersByTime(PIPE_LINE_MS)
      await new Promise((resolve) => setImmediate(resolve))
      live.stop()
      expect(drawn()).toMatch(/^recording y\.journal: \d+ s left, 7 answers, 2\.0 kB\n$/)
    } finally {
      vi.useRealTimers()
    }
  })
})
