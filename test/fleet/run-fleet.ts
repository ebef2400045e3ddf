/**
 * A fleet on one poller, all real: a redis-server, the simulator (in this process, its
 * market moved by hand), `relays` relay processes and `consumers` bot processes reading
 * through them. Mid-run the active relay is SIGKILLed, Redis is restarted once, and one
 * bot is restarted from its checkpoints. Then the run is checked against the simulator's
 * ground truth; the report says what was seen, and `problems` lists every broken promise.
 *
 * Used by test/fleet.test.ts (a short run inside `npm test`) and test/long/fleet.ts
 * (`npm run fleet`: 3 relays, 20 bots).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { createVenue } from '../../src/index.js'
import { relayKeys } from '../../src/redis/redis.js'
import { startSimulator } from '../../src/simulator/index.js'
import { builtFleetScript } from '../helpers/built.js'
import { type LiveProcess, liveCli } from '../helpers/cli.js'
import { startRedisServer } from '../helpers/redis-server.js'

export interface FleetSettings {
  readonly relays: number
  readonly consumers: number
  /**
   * How long the market moves on an idle machine, ms: it moves runMs / pollIntervalMs
   * times, once a poll interval (longer on a busy machine).
   */
  readonly runMs: number
  readonly pollIntervalMs: number
  readonly leaseMs: number
  readonly seed: number
}

export interface FleetReport {
  readonly settings: FleetSettings
  readonly trades: number
  readonly transfers: number
  readonly fills: number
  readonly bookEvents: number
  /**
   * Time from the SIGKILL of the relay publishing `depth:0` to the first book event a bot
   * received that a standby published (its seq after the last one the killed relay
   * published), ms: what a bot sees of a relay's death. Bounded by the lease (it runs
   * out within three quarters of `leaseMs`, a standby tries every tenth), then the standby's
   * first poll and publish, then the bot's next read (100 ms apart once caught up).
   */
  readonly killToNextEventMs: number | undefined
  /** The same to the moment every bot had received such an event, ms. */
  readonly killToNextEventAllBotsMs: number | undefined
  /**
   * Time from the SIGKILL to a standby reporting the stream `active` (its lease taken), as
   * the parent reads its state lines (looked at every 200 ms), ms.
   */
  readonly leaseTakeoverMs: number | undefined
  /** Venue requests per poll interval per stream, over the steady part of the run. */
  readonly requestsPerInterval: Readonly<Record<string, number>>
  /** Venue requests per stream over the steady part of the run, and its poll intervals. */
  readonly requests: Readonly<Record<string, number>>
  readonly intervals: number
  /** Venue requests of the whole fleet over the steady part of the run. */
  readonly totalRequests: number
  /** What one relay's request budget allows over that time. */
  readonly budgetRequests: number
  /** Bots that reported `retrying` during the Redis restart, and were `ok` after. */
  readonly healedConsumers: number
  readonly problems: readonly string[]
}

const POOL = 0
const STREAMS = ['depth:0', 'my-trades', 'fills', 'transfers']
/** The simulator paths the streams poll, and the streams polling each. */
const PATHS: Readonly<Record<string, readonly string[]>> = {
  '/api/v1/depth/v2': ['depth:0'],
  '/api/v1/trades': ['my-trades', 'fills'],
  '/api/v1/transfers': ['transfers'],
}

const digestOf = (bids: unknown, asks: unknown) =>
  createHash('sha1')
    .update(JSON.stringify([bids, asks]))
    .digest('hex')

function start(script: string, settings: object): LiveProcess {
  return liveCli(
    spawn(process.execPath, [builtFleetScript(script), JSON.stringify(settings)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
}

const linesOf = (cli: LiveProcess) =>
  cli.lines().map((line) => JSON.parse(line) as Record<string, unknown>)

async function until(condition: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = performance.now() + ms
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`fleet: timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export async function runFleet(settings: FleetSettings): Promise<FleetReport> {
  const problems: string[] = []
  const redis = await startRedisServer()
  const sim = await startSimulator({ seed: settings.seed, clock: 'manual' })
  const dir = mkdtempSync(join(tmpdir(), 'venue-rx-fleet-'))
  const processes: LiveProcess[] = []
  try {
    sim.advance(150)
    // Requests the simulator received, by path, with their times.
    const hits: { path: string; at: number }[] = []
    const decide = sim.faults.decide.bind(sim.faults)
    sim.faults.decide = (pathname: string) => {
      hits.push({ path: pathname, at: performance.now() })
      return decide(pathname)
    }
    // The book the venue serves at each of its times (it changes only when the market moves).
    const direct = createVenue({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      maxRequestsPerSecond: 1_000,
    })
    const served = new Map<number, string>()
    let ownDepthRequests = 0
    const recordServed = async () => {
      ownDepthRequests += 1
      const depth = await direct.rest.depth({ poolId: POOL })
      served.set(depth.timestamp, digestOf(depth.bids, depth.asks))
    }
    await recordServed()

    const prefix = 'fleet'
    const relayOptions = {
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      redis: redis.url,
      prefix,
      streams: STREAMS,
      leaseMs: settings.leaseMs,
      pollIntervalMs: settings.pollIntervalMs,
      maxRequestsPerSecond: 100,
      backoff: { initialMs: 20, maxMs: 200 },
    }
    const relays = Array.from({ length: settings.relays }, (_, i) =>
      start('relay-process.ts', { ...relayOptions, relayId: `relay-${i}` }),
    )
    processes.push(...relays)
    const consumerSettings = (i: number) => {
      const home = join(dir, `bot-${i}`)
      mkdirSync(home, { recursive: true })
      return {
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        redis: redis.url,
        prefix,
        dir: home,
        pool: POOL,
      }
    }
    // Each bot's output over its lives (one bot is restarted).
    const lives: LiveProcess[][] = Array.from({ length: settings.consumers }, (_, i) => {
      const bot = start('consumer-process.ts', consumerSettings(i))
      processes.push(bot)
      return [bot]
    })
    const killedRelays = new Set<LiveProcess>()
    /** The relay (not killed) that last reported `stream` active. */
    const activeRelay = (stream = 'my-trades') =>
      relays.find((relay) => {
        const states = linesOf(relay).filter((line) => line['stream'] === stream)
        return !killedRelays.has(relay) && states.at(-1)?.['state'] === 'active'
      })
    await until(() => activeRelay() !== undefined, 'a relay to hold my-trades', 20_000)
    const truthTrades = () =>
      (sim.market.account(sim.apiKey)?.trades() ?? []).map((t) => String(t.global_seq))
    const truthTransfers = () =>
      (sim.market.account(sim.apiKey)?.transfers() ?? []).map((t) => String(t.sid))
    /** The states one life of a bot reported, in order. */
    const healthStatesOf = (life: LiveProcess) =>
      linesOf(life)
        .filter((line) => line['t'] === 'health')
        .map((line) => line['state'])
    /** The states a bot's current life reported, in order. */
    const healthStates = (bot: readonly LiveProcess[]) => healthStatesOf(bot.at(-1) as LiveProcess)
    const seen = (bot: LiveProcess[], type: string, field: string) =>
      bot
        .flatMap((life) => linesOf(life))
        .filter((l) => l['t'] === type)
        .map((l) => String(l[field]))
    // Every bot has read the history before the market moves on.
    await until(
      () => lives.every((bot) => seen(bot, 'trade', 'seq').length >= truthTrades().length),
      'every bot to read the history',
      30_000,
    )

    // The run: the market moves every poll interval; faults at fixed points.
    const started = performance.now()
    let leaseTakeoverMs: number | undefined
    let killToNextEventMs: number | undefined
    let killToNextEventAllBotsMs: number | undefined
    let takeover: Promise<unknown> = Promise.resolve()
    const depthKey = relayKeys(
      { prefix, baseUrl: direct.settings.baseUrl, marketData: 'v2', apiKey: sim.apiKey },
      { kind: 'depth', poolId: POOL },
    ).stream
    let killed = false
    let restarted = false
    let botRestarted = false
    const killRelay = () => {
      killed = true
      // The relay publishing the book: its events tell when a standby publishes again.
      const victim = activeRelay('depth:0')
      if (victim === undefined) {
        problems.push('no active relay to kill')
        return
      }
      // Each bot's first book event after `seq`, stamped as its line arrives.
      const stamps = lives.map(() => ({ text: '', at: undefined as number | undefined }))
      let afterSeq: number | undefined
      const look = (i: number) => {
        const stamp = stamps[i]
        if (stamp === undefined || stamp.at !== undefined || afterSeq === undefined) return
        // Whole lines only: the last one may be cut off (kept for the next chunk).
        const complete = stamp.text.split('\n')
        stamp.text = complete.pop() ?? ''
        const seqs = complete
          .filter((line) => line.startsWith('{"t":"book"'))
          .map((line) => (JSON.parse(line) as { seq: number }).seq)
        if (seqs.some((seq) => seq > (afterSeq as number))) stamp.at = performance.now()
      }
      const listeners = lives.map((bot, i) => {
        const listener = (chunk: Buffer) => {
          const stamp = stamps[i]
          if (stamp === undefined || stamp.at !== undefined) return
          stamp.text += chunk.toString()
          look(i)
        }
        ;(bot.at(-1) as LiveProcess).child.stdout.on('data', listener)
        return () => (bot.at(-1) as LiveProcess).child.stdout.off('data', listener)
      })
      const killedAt = performance.now()
      killedRelays.add(victim)
      victim.child.kill('SIGKILL')
      const leased = until(
        () => activeRelay('depth:0') !== undefined,
        'a standby to take over',
        settings.leaseMs * 10,
      ).then(
        () => {
          leaseTakeoverMs = performance.now() - killedAt
        },
        () => problems.push('no standby took depth:0 over'),
      )
      const nextEvent = (async () => {
        // Once it is dead, the last book event it published is the last entry in Redis.
        if (victim.child.exitCode === null && victim.child.signalCode === null) {
          await new Promise((resolve) => victim.child.once('exit', resolve))
        }
        const client = new Redis(redis.url)
        try {
          const [last] = (await client.xrevrange(depthKey, '+', '-', 'COUNT', 1)) as [
            string,
            string[],
          ][]
          afterSeq = (JSON.parse(last?.[1][1] ?? '{"seq":-1}') as { seq: number }).seq
        } finally {
          client.disconnect()
        }
        for (const [i] of lives.entries()) look(i)
        await until(
          () => stamps.every((stamp) => stamp.at !== undefined),
          "every bot's first book event from a standby",
          settings.leaseMs * 10 + 10_000,
        )
        const times = stamps.map((stamp) => (stamp.at as number) - killedAt)
        killToNextEventMs = Math.min(...times)
        killToNextEventAllBotsMs = Math.max(...times)
      })().then(
        () => undefined,
        (error: unknown) => problems.push(`kill to next event: ${String(error)}`),
      )
      takeover = Promise.all([leased, nextEvent]).finally(() => {
        for (const stop of listeners) stop()
      })
    }
    const restartBot = async () => {
      botRestarted = true
      // The takeover is measured on every bot's output first.
      await takeover
      const bot = lives[0] as LiveProcess[]
      const life = bot.at(-1) as LiveProcess
      life.child.kill('SIGTERM')
      await life.exited
      const next = start('consumer-process.ts', consumerSettings(0))
      processes.push(next)
      bot.push(next)
      // Running again (reading through the relay) before Redis restarts.
      await until(
        () => linesOf(next).some((line) => line['t'] === 'book'),
        'the restarted bot to read again',
        20_000,
      )
    }
    const redisOutage = async () => {
      restarted = true
      // Down until every bot has noticed (a read failed: it reports retrying), then up:
      // a restart quicker than a bot's next read would go unnoticed by some.
      await redis.stop()
      await until(
        () => lives.every((bot) => healthStates(bot).includes('retrying')),
        'every bot to notice Redis is down',
        20_000,
      ).catch((error: unknown) => problems.push(String(error)))
      await redis.start()
    }
    // As many market steps as poll intervals in runMs, however long a busy machine takes
    // over them: each step is one more book for the bots, the fault points at fixed steps.
    const steps = Math.max(1, Math.round(settings.runMs / settings.pollIntervalMs))
    for (let step = 1; step <= steps; step += 1) {
      sim.advance(2)
      await recordServed()
      const at = step / steps
      if (!killed && at > 0.25) killRelay()
      if (!botRestarted && at > 0.4) await restartBot()
      if (!restarted && at > 0.6) await redisOutage()
      await new Promise((resolve) => setTimeout(resolve, settings.pollIntervalMs))
    }
    const steadyEnd = performance.now()
    await takeover

    // Every bot catches up with the truth (the fills as a venue polled directly has them).
    const trades = truthTrades()
    const transfers = truthTransfers()
    const fills = await new Promise<string[]>((resolve, reject) => {
      const all: string[] = []
      const subscription = direct
        .watchFills({
          onProgress: (progress) => {
            // Caught up, with nothing held back by the settle window.
            if (progress.phase !== 'tail' || progress.held > 0) return
            queueMicrotask(() => subscription.unsubscribe())
            resolve(all)
          },
        })
        .subscribe({ next: (fill) => all.push(`${fill.globalSeq}/${fill.role}`), error: reject })
    })
    // Every bot has its items, and its health has settled after the Redis restart (a busy
    // machine may still be retrying when the run ends).
    const healthy = (bot: readonly LiveProcess[]) => {
      const states = new Map<unknown, unknown>()
      for (const line of bot.at(-1) === undefined ? [] : linesOf(bot.at(-1) as LiveProcess)) {
        if (line['t'] === 'health') states.set(line['key'], line['state'])
      }
      return states.size > 0 && [...states.values()].every((state) => state === 'ok')
    }
    await until(
      () =>
        lives.every(
          (bot) =>
            seen(bot, 'trade', 'seq').length >= trades.length &&
            seen(bot, 'fill', 'id').length >= fills.length &&
            seen(bot, 'transfer', 'sid').length >= transfers.length &&
            healthy(bot),
        ),
      'every bot to catch up',
      30_000,
    ).catch((error: unknown) => problems.push(String(error)))
    // Healed: noticed the outage, and every stream ok again (counted now: a busy machine
    // may see a relay lose and take back a lease later on, a retry of its own).
    const healedConsumers = lives.filter(
      (bot) => bot.some((life) => healthStatesOf(life).includes('retrying')) && healthy(bot),
    ).length
    // A moment for anything extra (a repeated item) to arrive.
    await new Promise((resolve) => setTimeout(resolve, settings.pollIntervalMs * 3))

    let bookEvents = 0
    lives.forEach((bot, i) => {
      const lines = bot.flatMap((life) => linesOf(life))
      const errors = lines.filter((l) => l['t'] === 'error')
      if (errors.length > 0) problems.push(`bot ${i}: ${JSON.stringify(errors[0])}`)
      const gotTrades = seen(bot, 'trade', 'seq')
      if (JSON.stringify(gotTrades) !== JSON.stringify(trades)) {
        problems.push(
          `bot ${i}: ${gotTrades.length} trades, not the ${trades.length} of the truth in order`,
        )
      }
      const gotFills = seen(bot, 'fill', 'id')
      if (JSON.stringify(gotFills) !== JSON.stringify(fills)) {
        problems.push(
          `bot ${i}: ${gotFills.length} fills, not the ${fills.length} of the venue in order`,
        )
      }
      const gotTransfers = seen(bot, 'transfer', 'sid')
      if (JSON.stringify(gotTransfers) !== JSON.stringify(transfers)) {
        problems.push(
          `bot ${i}: ${gotTransfers.length} transfers, not the ${transfers.length} of the truth`,
        )
      }
      // Books: every life's events link, and every book is the one served at its time.
      for (const life of bot) {
        let last: number | undefined
        for (const line of linesOf(life).filter((l) => l['t'] === 'book')) {
          bookEvents += 1
          if (line['kind'] === 'delta' && line['prevSeq'] !== last) {
            problems.push(`bot ${i}: delta ${line['seq']} after ${last}`)
          }
          last = line['seq'] as number
          const expected = served.get(line['ts'] as number)
          if (expected !== line['digest']) {
            problems.push(
              `bot ${i}: book at seq ${line['seq']} is not the one served at ${line['ts']}`,
            )
          }
        }
      }
    })

    // Venue load over the run (after the history was read), per stream.
    const intervals = (steadyEnd - started) / settings.pollIntervalMs
    const requestsPerInterval: Record<string, number> = {}
    const requests: Record<string, number> = {}
    let totalRequests = 0
    for (const [path, streams] of Object.entries(PATHS)) {
      let count = hits.filter(
        (hit) => hit.path === path && hit.at >= started && hit.at <= steadyEnd,
      ).length
      if (path.startsWith('/api/v1/depth')) count -= ownDepthRequests - 1
      totalRequests += count
      const perStream = Math.round((count / intervals / streams.length) * 100) / 100
      for (const stream of streams) {
        requestsPerInterval[stream] = perStream
        requests[stream] = count / streams.length
      }
    }
    await direct.close()
    return {
      settings,
      trades: trades.length,
      transfers: transfers.length,
      fills: fills.length,
      bookEvents,
      killToNextEventMs:
        killToNextEventMs === undefined ? undefined : Math.round(killToNextEventMs),
      killToNextEventAllBotsMs:
        killToNextEventAllBotsMs === undefined ? undefined : Math.round(killToNextEventAllBotsMs),
      leaseTakeoverMs: leaseTakeoverMs === undefined ? undefined : Math.round(leaseTakeoverMs),
      requestsPerInterval,
      requests,
      intervals,
      totalRequests,
      budgetRequests: (relayOptions.maxRequestsPerSecond * (steadyEnd - started)) / 1000,
      healedConsumers,
      problems,
    }
  } finally {
    for (const process of processes) {
      if (process.child.exitCode === null && process.child.signalCode === null) {
        process.child.kill('SIGTERM')
      }
    }
    await Promise.all(processes.map((process) => process.exited))
    await sim.close()
    await redis.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
