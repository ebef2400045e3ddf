/**
 * The README and docs/cli.md against what runs.
 *
 * Their shell commands: every `venue-rx ...` line of a ```sh block runs, in the order of the
 * document, against the simulator its `venue-rx simulate` line started (on a free port, not
 * 8787, which another program may hold; VENUE_URL names it, and `k-...` stands for the key
 * it printed), and must exit 0. Where a ```text block shows a command's output
 * (`$ venue-rx ...`, then its lines), the command must print exactly those lines. A
 * command both documents give runs once, for both. Left
 * out: `relay` lines (they name the README's example Redis host; test/cli-relay.test.ts
 * runs the relay against a real Redis) and npm scripts (not the CLI).
 *
 * Their TypeScript, and that of the rest of docs/, is type-checked by test/types.test.ts,
 * none is run: most snippets are fragments of a bot (a `venue` made earlier, a `ledger` of
 * the reader's); the whole ones either run until Ctrl-C (the Quick start) or are what
 * examples/ and the simulator's own tests run.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliEnv, cliOutcome, liveCli, ROOT, startCli, waitForCli } from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'
import { blocks, type Command, cliCommands, shownOutputs } from './helpers/cli-readme.js'

const fixture = cliFixture('venue-rx-readme-')

/** The simulator the README's own `venue-rx simulate` line started: its URL and key. */
interface Running {
  readonly url: string
  readonly key: string
}

/** Starts a `venue-rx simulate` line on a free port; resolves once it printed its key. */
async function simulate(command: Command): Promise<{ running: Running; out: string[] }> {
  const args = [...command.args]
  const port = args.indexOf('--port')
  if (port === -1) args.push('--port', '0')
  else args[port + 1] = '0'
  const cli = liveCli(startCli(args, cliEnv()))
  fixture.children.push(cli.child)
  await waitForCli(cli, () => cli.out().includes('Press Ctrl-C to stop.'), `"${command.text}"`)
  const url = /url\s+(\S+)/.exec(cli.out())?.[1] ?? ''
  const key = /api key\s+(k-\w+)/.exec(cli.out())?.[1] ?? ''
  // What the line would print on its own port (8787 unless it names one).
  const own = `http://127.0.0.1:${port === -1 ? '8787' : command.args[port + 1]}`
  const out = cli.lines().map((line) => line.replace(url, own))
  if (!command.background) {
    cli.interrupt()
    expect((await cli.exited).code, `"${command.text}" after Ctrl-C`).toBe(0)
  }
  return { running: { url, key }, out }
}

/**
 * The runs of the commands, by their arguments and environment: a command both documents
 * give (their simulators are alike) runs once, and its output is held against each.
 */
const runs = new Map<string, Promise<string[]>>()

/**
 * Runs one command of the CLI to its end against `running`, in the directory `cwd`, or
 * resolves to the output of its earlier run.
 */
function run(command: Command, running: Running, cwd: string): Promise<string[]> {
  const key = JSON.stringify([command.args, command.env])
  let started = runs.get(key)
  if (started === undefined) {
    started = runOnce(command, running, cwd)
    runs.set(key, started)
  }
  return started
}

async function runOnce(command: Command, running: Running, cwd: string): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...cliEnv(), VENUE_URL: running.url }
  for (const [name, value] of Object.entries(command.env)) {
    env[name] = value === 'k-...' ? running.key : value
  }
  // In the document's directory: `export` writes its files where it runs.
  const child = startCli(command.args, env, cwd)
  fixture.children.push(child)
  const { code, out, err } = await cliOutcome(child)
  expect({ line: command.line, text: command.text, code, err: code === 0 ? '' : err }).toEqual({
    line: command.line,
    text: command.text,
    code: 0,
    err: '',
  })
  return out.split('\n').filter((line) => line !== '')
}

/**
 * Runs the `venue-rx` commands of `file` (a Markdown file of the repository) in order,
 * against the simulator its own `venue-rx simulate` line starts, and checks the output it
 * shows for any of them.
 */
async function runDocument(file: string): Promise<void> {
  const all = blocks(readFileSync(join(ROOT, file), 'utf8'))
  const commands = cliCommands(all).filter((c) => c.args[0] !== 'relay')
  const shown = shownOutputs(all)
  expect(commands.map((c) => c.args[0])).toContain('watch')
  // Every output shown belongs to a command the document gives.
  for (const command of shown.keys()) {
    expect(commands.map((c) => `venue-rx ${c.args.join(' ')}`)).toContain(command)
  }
  const cwd = join(fixture.dir(), file.replace(/\W/g, '-'))
  mkdirSync(cwd)
  let running: Running | undefined
  const checks: Promise<void>[] = []
  for (const command of commands) {
    const expected = shown.get(`venue-rx ${command.args.join(' ')}`)
    if (command.args[0] === 'simulate') {
      const started = await simulate(command)
      if (command.background || running === undefined) running = started.running
      if (expected !== undefined) expect(started.out, command.text).toEqual(expected)
      continue
    }
    if (running === undefined) throw new Error(`${file} line ${command.line}: no simulator yet`)
    const at = running
    // The commands after a simulator are independent: they run side by side.
    checks.push(
      run(command, at, cwd).then((out) => {
        if (expected !== undefined) expect(out, command.text).toEqual(expected)
      }),
    )
  }
  await Promise.all(checks)
}

describe.concurrent("the documents' commands", () => {
  it('the README: its venue-rx commands run against the simulator it starts, printing what it shows', () =>
    runDocument('README.md'))

  it('docs/cli.md: its venue-rx commands run against the simulator it starts', () =>
    runDocument('docs/cli.md'))
})
