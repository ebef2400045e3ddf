/**
 * `venue-rx relay` as a child process (the transpiled CLI, see test/global-setup.ts) against a real
 * redis-server and simulators on a manual clock: what it prints on stderr (or as JSON on
 * stdout), what a consumer reads through Redis, its usage errors, Redis out of reach, and
 * SIGINT. No sleeps: each test waits for output or a condition.
 */
import { readFileSync } from 'node:fs'
import { Redis } from 'ioredis'
import { firstValueFrom, type Subscription } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UsageError } from '../src/cli/args.js'
import { relayCommand } from '../src/cli/relay-command.js'
import { createVenue, type TradeDetail } from '../src/index.js'
import type { AccountView, Simulator } from '../src/simulator/index.js'
import {
  cliEnv,
  type LiveCli,
  liveCli,
  quickFeeds,
  runInProcess,
  startCli,
  testIo,
  waitForCli,
} from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'
import { type RedisServer, startRedisServer } from './helpers/redis-server.js'
import { waitFor, waitForAsync } from './helpers/wait-for.js'

// Registered before the fixture: its afterAll (killing what still runs) comes first.
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.close()
})

/** Redis servers a test starts for itself: closed after the file's tests. */
const ownRedis: RedisServer[] = []
const onCleanupOf = (server: RedisServer) => ownRedis.push(server)
afterAll(async () => {
  await Promise.all(ownRedis.splice(0).map((server) => server.close()))
})

const fixture = cliFixture('venue-rx-relay-')
const { children, venues } = fixture

/** A simulator on a manual clock with `ticks` of history, and its demo account. */
async function simulator(ticks: number): Promise<{ sim: Simulator; account: AccountView }> {
  const sim = await fixture.simulator(ticks)
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('no demo account')
  return { sim, account }
}

/** Starts the CLI with `args` (and `key` as VENUE_API_KEY), collecting its output. */
function start(args: readonly string[], key?: string): LiveCli {
  const child = startCli(quickFeeds(args), cliEnv(key))
  children.push(child)
  return liveCli(child)
}

/**
 * The same in this process, with streams of its own: for what a relay prints and does
 * (what only a process shows, Ctrl-C and its arguments, is tested on children above).
 */
function inProcess(args: readonly string[], key?: string): LiveCli {
  return runInProcess(quickFeeds(args), cliEnv(key))
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '')
/** The short lease and poll interval of these tests. */
const QUICK = ['--lease-ms', '500', '--poll-ms', '25']

describe.concurrent('venue-rx relay', () => {
  it('publishes depth:0 and my-trades: a start line, both active; a consumer reads every own trade in order through Redis; SIGINT exits 0', async () => {
    const { sim, account } = await simulator(100)
    const known = account.trades()
    expect(known.length).toBeGreaterThan(20)
    const run = start(
      [
        'relay',
        '--streams',
        'depth:0,my-trades',
        '--redis',
        redis.url,
        '--base-url',
        sim.url,
      ].concat(QUICK),
      sim.apiKey,
    )
    await waitForCli(
      run,
      () => /^depth:0 active$/m.test(run.err()) && /^my-trades active$/m.test(run.err()),
      'both streams active',
    )
    const [startLine] = lines(run.err())
    expect(startLine).toMatch(
      new RegExp(
        `^relay [0-9a-f]{16}: publishing depth:0, my-trades to redis 127\\.0\\.0\\.1:${redis.port} `,
      ),
    )

    // A consumer reads from Redis (default prefix, as the relay's).
    const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, relay: { redis: redis.url } })
    venues.push(venue)
    const book = await firstValueFrom(venue.watchDepth(0))
    expect([book.type, book.poolId]).toEqual(['snapshot', 0])
    const seen: TradeDetail[] = []
    const subscription: Subscription = venue.watchMyTrades().subscribe((t) => seen.push(t))
    try {
      await waitFor(() => seen.length >= known.length, 'the known trades through the relay')
      // The relay goes on polling: trades made now reach the consumer too.
      sim.advance(100)
      const all = account.trades()
      expect(all.length).toBeGreaterThan(known.length)
      await waitFor(() => seen.length >= all.length, 'the new trades through the relay')
      expect(seen.map((t) => t.global_seq)).toEqual(all.map((t) => String(t.global_seq)))
    } finally {
      subscription.unsubscribe()
    }

    run.interrupt()
    const { code, out, err } = await run.exited
    expect(code).toBe(0)
    expect(out).toBe('')
    for (const line of lines(err).slice(1)) {
      expect(line).toMatch(/^(depth:0|my-trades) (active|standby)$/)
    }
    expect(`${out}${err}`).not.toContain(sim.apiKey)
  })

  it('--json, Redis down at the start: keeps trying, says so after 2 s (host:port, never the password); once Redis is up the state lines are JSON on stdout; Ctrl-C ends it with 0', async () => {
    const { sim } = await simulator(10)
    // A Redis of this test's own, down until the relay has said it waits for it.
    const late = await startRedisServer()
    onCleanupOf(late)
    await late.stop()
    const run = inProcess(
      ['relay', '--json', '--streams', 'depth:0,pools', '--base-url', sim.url]
        .concat(['--redis', `redis://:s3cret-pw@127.0.0.1:${late.port}`])
        .concat(['--relay-id', 'r-json', '--prefix', 'json-test', '--max-len', '500'])
        .concat(QUICK),
    )
    await waitForCli(run, () => run.err().includes('waiting for Redis'), 'the waiting line')
    // Each stream's line says it is retrying, and why (host:port, never the password).
    await waitForCli(run, () => run.lines().length >= 2, 'two retrying lines')
    const retrying = run.lines().map((line) => JSON.parse(line))
    expect(retrying.map(({ stream, state }) => ({ stream, state })).sort(byStream)).toEqual([
      { stream: 'depth:0', state: 'retrying' },
      { stream: 'pools', state: 'retrying' },
    ])
    for (const event of retrying) {
      expect(Object.keys(event)).toEqual(['stream', 'state', 'reason', 'at'])
      expect(event.reason).toContain(`cannot reach Redis at 127.0.0.1:${late.port}`)
    }
    expect(run.out()).not.toContain('s3cret-pw')
    const before = Date.now()
    await late.start()
    // Once Redis answers, each stream turns active (a line `standby` may come between, for
    // the moment the relay reads where the stream was left before it publishes).
    const later = () =>
      run
        .lines()
        .slice(2)
        .map((line) => JSON.parse(line) as { stream: string; state: string; at: number })
    const activeLines = () => later().filter((event) => event.state === 'active')
    await waitForCli(run, () => activeLines().length >= 2, 'two active lines')
    const after = Date.now()
    const events = later()
    expect(
      activeLines()
        .map(({ stream, state }) => ({ stream, state }))
        .sort(byStream),
    ).toEqual([
      { stream: 'depth:0', state: 'active' },
      { stream: 'pools', state: 'active' },
    ])
    expect(events.every((event) => event.state === 'active' || event.state === 'standby')).toBe(
      true,
    )
    for (const event of events) {
      expect(Object.keys(event)).toEqual(['stream', 'state', 'at'])
      expect(event.at).toBeGreaterThanOrEqual(before)
      expect(event.at).toBeLessThanOrEqual(after)
    }
    // The keys carry the prefix given.
    const consumer = createVenue({
      baseUrl: sim.url,
      relay: { redis: late.url, prefix: 'json-test' },
    })
    venues.push(consumer)
    const pools = await firstValueFrom(consumer.watchPools())
    expect(pools.map((p) => p.pool_id)).toEqual([0, 1, 2])

    run.interrupt()
    const { code, err } = await run.exited
    expect(code).toBe(0)
    const where = `127.0.0.1:${late.port}`
    const [startLine, waiting, ...rest] = lines(err)
    expect(startLine).toBe(
      `relay r-json: publishing depth:0, pools to redis ${where} (venue ${sim.url}, prefix json-test)`,
    )
    expect(waiting).toMatch(
      new RegExp(`^waiting for Redis at ${where.replaceAll('.', '\\.')} \\(.*ECONNREFUSED`),
    )
    expect(rest).toEqual([])
    expect(err).not.toContain('s3cret')
  })

  it('takes Redis from VENUE_RX_REDIS: its password is used (the relay turns active) and is neither in the process arguments nor in the output', async () => {
    const { sim } = await simulator(10)
    // A Redis of this test's own, which asks for a password.
    const guarded = await startRedisServer()
    onCleanupOf(guarded)
    const admin = new Redis(guarded.url)
    await admin.config('SET', 'requirepass', 'env-s3cret-pw')
    admin.disconnect()
    const url = `redis://:env-s3cret-pw@127.0.0.1:${guarded.port}`
    const child = startCli(
      quickFeeds(['relay', '--streams', 'depth:0', '--base-url', sim.url].concat(QUICK)),
      { ...cliEnv(), VENUE_RX_REDIS: url },
    )
    children.push(child)
    const run = liveCli(child)
    await waitForCli(run, () => /^depth:0 active$/m.test(run.err()), 'depth:0 active')
    // What `ps` shows: the command line, without the URL.
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')
    expect(argv).toContain('--streams')
    expect(argv).not.toContain('env-s3cret-pw')
    child.kill('SIGINT')
    const { code, out, err } = await run.exited
    expect(code).toBe(0)
    expect(lines(err)[0]).toContain(`to redis 127.0.0.1:${guarded.port} `)
    expect(`${out}${err}`).not.toContain('env-s3cret-pw')
  })

  it('VENUE_RX_REDIS: --redis wins over it; a blank one counts as unset; a wrong one is named, never quoted', async () => {
    const outcome = async (args: string[], env: string) => {
      const running = relayCommand(args, testIo({ ...cliEnv(), VENUE_RX_REDIS: env }).io)
      return running.then(
        () => undefined,
        (e: unknown) => e as Error,
      )
    }
    const wrong = await outcome(['--streams', 'depth:0'], 'http://user:s3cret-pw@host:1')
    expect(wrong).toBeInstanceOf(UsageError)
    expect(wrong?.message).toMatch(/^VENUE_RX_REDIS must be a URL redis:\/\//)
    expect(wrong?.message).not.toContain('s3cret')
    const blank = await outcome(['--streams', 'depth:0'], '  ')
    expect(blank?.message).toBe(
      'relay: --redis is required (redis://HOST:PORT), or set VENUE_RX_REDIS',
    )
    // --redis given: the variable is not looked at (here it would be refused).
    const both = await outcome(
      ['--streams', 'depth:0', '--redis', redis.url, '--lease-ms', 'soon'],
      'not a url',
    )
    expect(both?.message).toContain('--lease-ms must be a whole number')
  })

  it('Redis full under a running relay: one line with the reason, then one when it is over; the password never shown', async () => {
    const { sim } = await simulator(10)
    const full = await startRedisServer({ password: 'full-s3cret-pw' })
    onCleanupOf(full)
    const url = `redis://:full-s3cret-pw@127.0.0.1:${full.port}`
    const run = inProcess(
      ['relay', '--streams', 'depth:0', '--redis', url, '--base-url', sim.url].concat(QUICK),
    )
    await waitForCli(run, () => /^depth:0 active$/m.test(run.err()), 'depth:0 active')
    const admin = new Redis(url)
    try {
      await admin.config('SET', 'maxmemory-policy', 'noeviction')
      await admin.config('SET', 'maxmemory', '1')
      // The book moves: the relay's next write is refused.
      sim.advance(20)
      await waitForCli(run, () => /^depth:0 retrying: /m.test(run.err()), 'the retrying line')
      await admin.config('SET', 'maxmemory', '0')
      await waitForCli(
        run,
        () => /^depth:0 redis ok$/m.test(run.err()),
        'the line saying it is over',
      )
    } finally {
      admin.disconnect()
    }
    run.interrupt()
    const { code, err } = await run.exited
    expect(code).toBe(0)
    const trouble = lines(err).filter((line) => /retrying/.test(line))
    expect(trouble.length).toBeGreaterThan(0)
    for (const line of trouble) expect(line).toMatch(/^depth:0 retrying: .*OOM command not allowed/)
    expect(err).not.toContain('full-s3cret-pw')
  })

  it('--metrics-port 0: prints where the metrics are, serves them while it runs (one pools event published, the requests counted), closes the port on Ctrl-C', async () => {
    const { sim } = await simulator(10)
    const run = inProcess(
      ['relay', '--streams', 'pools', '--redis', redis.url, '--base-url', sim.url]
        .concat(['--prefix', 'metrics-test', '--metrics-port', '0'])
        .concat(QUICK),
    )
    await waitForCli(
      run,
      () => /^pools active$/m.test(run.err()) && /metrics at /.test(run.err()),
      'pools active and the metrics line',
    )
    const url = /^relay [0-9a-f]{16}: metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(
      run.err(),
    )?.[1]
    expect(url).toBeDefined()
    // The pools never change on a manual clock: one event, published once.
    let text = ''
    await waitForAsync(async () => {
      text = await (await fetch(url as string)).text()
      return /^venue_rx_relay_events_published_total\{stream="pools"\} 1$/m.test(text)
    }, 'the one event counted')
    expect(text).toMatch(/^venue_rx_relay_venue_requests_total\{stream="pools"\} [1-9]\d*$/m)
    expect(text).toMatch(/^venue_rx_relay_active\{stream="pools"\} 1$/m)
    run.interrupt()
    const { code } = await run.exited
    expect(code).toBe(0)
    const closed = await fetch(url as string).then(
      () => false,
      () => true,
    )
    expect(closed).toBe(true)
  })

  it('bad arguments: exit 2 and one line pointing to relay --help; a missing VENUE_API_KEY is named; --help exits 0', async () => {
    const url = redis.url
    const cases: [string[], string][] = [
      [['--streams', 'depth:x', '--redis', url], 'relay: unknown stream "depth:x" (streams: '],
      [
        ['--streams', 'depth:0,my-trades', '--redis', url],
        'relay: my-trades is of the account and needs an API key: set VENUE_API_KEY',
      ],
    ]
    const [help, ...outcomes] = await Promise.all([
      inProcess(['relay', '--help']).exited,
      ...cases.map(([args]) => inProcess(['relay', ...args]).exited),
    ])
    for (const [i, [args, message]] of cases.entries()) {
      const outcome = outcomes[i]
      const err = outcome?.err ?? ''
      expect({ args, code: outcome?.code, out: outcome?.out }).toEqual({ args, code: 2, out: '' })
      expect(err).toMatch(/^venue-rx: [^\n]+; see `venue-rx relay --help`\n$/)
      expect(err).toContain(message)
    }
    expect(help?.code).toBe(0)
    expect(help?.err).toBe('')
    expect(help?.out).toMatch(/^Usage: venue-rx relay /)
    for (const flag of RELAY_FLAGS) {
      expect(help?.out).toMatch(new RegExp(`^  (-h, )?${flag} `, 'm'))
    }
    for (const stream of RELAY_STREAMS) {
      expect(help?.out).toMatch(new RegExp(`^  ${stream} `, 'm'))
    }
    expect(help?.out).toContain('Example:\n  VENUE_API_KEY=k-... venue-rx relay --redis redis://')
  })

  it('other usage errors, checked in this process before anything starts (never quoting --redis)', async () => {
    const base = ['--streams', 'depth:0', '--redis', redis.url]
    const cases: [string[], string][] = [
      [[...base, '--lease-ms', 'soon'], '--lease-ms must be a whole number from 100 to'],
      [[...base, '--max-len', '10'], '--max-len must be a whole number from 100 to'],
      [
        [...base, '--metrics-port', '65536'],
        '--metrics-port must be a whole number from 0 to 65535',
      ],
      [[...base, '--metrics-port', 'x'], '--metrics-port must be a whole number from 0 to 65535'],
      [[...base, '--metrics-host', '0.0.0.0'], 'relay: --metrics-host needs --metrics-port'],
      [[...base, '--metrics-port', '0', '--metrics-host', 'a b'], '--metrics-host must be a host'],
      [[...base, '--frobnicate'], 'unknown option --frobnicate'],
      [[...base, 'stray'], 'relay takes no argument (got "stray")'],
      [[...base, '--prefix', 'a b'], '--prefix must be 1-64 letters'],
      [[...base, '--base-url', 'ftp://x'], '--base-url must be an http(s) URL'],
      [['--streams', 'depth:0'], 'relay: --redis is required'],
      [['--redis', redis.url], 'relay: --streams is required'],
      [['--streams', 'depth:0,,trades:0', '--redis', redis.url], '--streams must be names'],
      [['--streams', 'depth:0,depth:0', '--redis', redis.url], 'the stream depth:0 is named twice'],
      [['--streams', 'depth:0', '--redis', 'http://user:s3cret-pw@host:1'], '--redis must be'],
      [['--streams', 'depth:0', '--redis', 'redis://user:s3cret-pw@:1'], '--redis must be'],
    ]
    for (const [args, message] of cases) {
      const error = await relayCommand(args, testIo().io).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, args.join(' ')).toBeInstanceOf(UsageError)
      const { message: text } = error as UsageError
      expect(text, args.join(' ')).toContain(message)
      expect(text).not.toContain('\n')
      expect(text).not.toContain('s3cret')
    }
  })
})

const RELAY_FLAGS = [
  '--redis',
  '--streams',
  '--base-url',
  '--prefix',
  '--lease-ms',
  '--max-len',
  '--poll-ms',
  '--relay-id',
  '--metrics-port',
  '--metrics-host',
  '--json',
  '--help',
]
const RELAY_STREAMS = [
  'depth:POOL',
  'trades:POOL',
  'klines:POOL:INTERVAL',
  'pools',
  'my-trades',
  'transfers',
  'fills',
  'balances',
  'open-orders',
]

const byStream = (a: { stream: string }, b: { stream: string }) => a.stream.localeCompare(b.stream)
