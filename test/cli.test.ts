import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createVenue } from '../src/index.js'
import { type CliProcess, cliOutcome, startCli } from './helpers/cli.js'
import { waitFor } from './helpers/wait-for.js'

const children: CliProcess[] = []

/** Starts the CLI from source (through tsx), as `npm start` does. */
function cli(...args: string[]): CliProcess {
  const child = startCli(args)
  children.push(child)
  return child
}

/** Collects stdout until `pattern` matches; rejects if the process exits first. */
async function waitForOutput(child: CliProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  let out = ''
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
  }
  child.stdout.on('data', onData)
  const exited = () => child.exitCode !== null || child.signalCode !== null
  try {
    // Starting takes a while on a slow, busy machine.
    await waitFor(() => pattern.test(out) || exited(), `${pattern} on stdout`, 15_000)
  } finally {
    child.stdout.off('data', onData)
  }
  const match = out.match(pattern)
  if (match === null) throw new Error(`exited with ${child.exitCode} before ${pattern}: ${out}`)
  return match
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

describe('venue-rx CLI', () => {
  it('simulate prints a URL and an API key that a venue client can use, and stops on SIGTERM', async () => {
    const child = cli('simulate', '--port', '0', '--seed', '7')
    const [, url, key] = await waitForOutput(child, /url\s+(http:\/\/\S+)\n\s+api key\s+(k-\w+)/)
    expect(key).toMatch(/^k-[A-Za-z0-9]{36}$/)
    const venue = createVenue({ baseUrl: url ?? '', apiKey: key ?? '' })
    try {
      const [pools, info] = await Promise.all([venue.rest.pools(), venue.rest.accountInfo()])
      expect(pools.length).toBeGreaterThanOrEqual(3)
      expect(info.chain_account).not.toBe('')
    } finally {
      await venue.close()
    }
    const exit = once(child, 'exit')
    child.kill('SIGTERM')
    const [code] = (await exit) as [number | null]
    expect(code).toBe(0)
  })

  it('--version prints the package version, --help the commands, no command the usage on stderr with exit 2', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    const version = await cliOutcome(cli('--version'))
    expect([version.code, version.out]).toEqual([0, `${pkg.version}\n`])
    const help = await cliOutcome(cli('--help'))
    expect(help.code).toBe(0)
    for (const command of ['demo', 'simulate', 'watch', 'export', 'relay']) {
      expect(help.out).toMatch(new RegExp(`^  ${command} `, 'm'))
    }
    // No command at all is a usage error: the same usage, on stderr, exit 2.
    expect(await cliOutcome(cli())).toEqual({ code: 2, out: '', err: help.out })
  })

  // demo --help and relay --help are read more closely by their own files (cli-demo,
  // cli-relay); usage errors of every command by cli-exits, on a terminal.
  it('simulate, watch and export have --help: their own usage on stdout, exit 0', async () => {
    const commands = ['simulate', 'watch', 'export']
    const outcomes = await Promise.all(
      commands.map((command) => cliOutcome(cli(command, '--help'))),
    )
    for (const [i, command] of commands.entries()) {
      expect(outcomes[i]?.code).toBe(0)
      expect(outcomes[i]?.out).toMatch(new RegExp(`^Usage: venue-rx ${command} `))
    }
  })

  it('simulate on a busy port: one line with a hint, exit 1', async () => {
    const first = cli('simulate', '--port', '0')
    const [, url] = await waitForOutput(first, /url\s+(http:\S+)/)
    const port = new URL(url ?? '').port
    const { code, out, err } = await cliOutcome(cli('simulate', '--port', port))
    expect(code).toBe(1)
    expect(out).toBe('')
    expect(err).toBe(
      `venue-rx: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another with --port (--port 0 takes a free one)\n`,
    )
  })
})
