/**
 * A real Redis Cluster of `redis-server --cluster-enabled yes` masters (3 by default, no
 * replicas) on free ports from 20000 to 22767 (each node's cluster bus, port + 10000,
 * stays below the ports Linux hands out itself, 32768 and up), in one temporary
 * directory, created with `redis-cli --cluster create` and ready once every node says
 * `cluster_state:ok`. A node can be hung (`SIGSTOP`) and woken (`SIGCONT`): the cluster
 * waits far longer (`cluster-node-timeout`) before it would count it as failed.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { waitForAsync } from './wait-for.js'

export interface RedisCluster {
  /** The masters' ports. */
  readonly ports: readonly number[]
  /** `redis://127.0.0.1:<port>` of each master. */
  readonly urls: readonly string[]
  /** The cluster as venue-rx takes it. */
  readonly redis: { readonly cluster: string[] }
  /** A plain connection to the node on `port` (for CLUSTER KEYSLOT, INFO, KEYS ...). */
  node(port: number): Redis
  /** The port of the master that serves `key`'s slot. */
  ownerOf(key: string): Promise<number>
  /** Sends a signal to the node on `port` (`SIGSTOP` hangs it, `SIGCONT` wakes it). */
  signal(port: number, name: NodeJS.Signals): void
  /** `INFO errorstats` error counts of each node (`CROSSSLOT`, `MOVED`, ...), by port. */
  errorStats(): Promise<Map<number, Record<string, number>>>
  /** Stops every node and removes the directory. */
  close(): Promise<void>
}

const run = promisify(execFile)

/** Free ports from 20000 to 22767 whose bus port (+10000) is free too. */
async function clusterPorts(count: number): Promise<number[]> {
  const ports: number[] = []
  for (let attempt = 0; ports.length < count; attempt += 1) {
    if (attempt > 200) throw new Error('no free ports from 20000 to 22767')
    const port = 20_000 + Math.floor(Math.random() * 2_768)
    if (ports.includes(port) || ports.includes(port + 10_000)) continue
    if ((await canListen(port)) && (await canListen(port + 10_000))) ports.push(port)
  }
  return ports
}

function canListen(port: number): Promise<boolean> {
  const server = createServer()
  return new Promise((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-rx-cluster-'))
  const children = new Map<number, ChildProcess>()
  const admins = new Map<number, Redis>()
  const close = async () => {
    for (const admin of admins.values()) admin.disconnect()
    await Promise.all(
      [...children.values()].map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
        child.kill('SIGCONT')
        child.kill('SIGKILL')
        return exited
      }),
    )
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const ports = await clusterPorts(masters)
    for (const port of ports) children.set(port, startNode(dir, port))
    for (const port of ports) {
      const admin = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 1,
      })
      // Refused until the server listens: the ping below says when it does.
      admin.on('error', () => undefined)
      admins.set(port, admin)
      await waitForAsync(
        async () => (await admin.ping().catch(() => '')) === 'PONG',
        `redis-server on ${port}`,
      )
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ])
    const ok = async (admin: Redis) =>
      /cluster_state:ok/.test(String(await admin.call('CLUSTER', 'INFO')))
    await waitForAsync(
      async () => (await Promise.all([...admins.values()].map(ok))).every(Boolean),
      'cluster_state:ok on every node',
    )
    const admin = (port: number) => {
      const found = admins.get(port)
      if (found === undefined) throw new Error(`no node on ${port}`)
      return found
    }
    const urls = ports.map((port) => `redis://127.0.0.1:${port}`)
    return {
      ports,
      urls,
      redis: { cluster: [...urls] },
      node: admin,
      ownerOf: async (key) => {
        const slot = Number(await admin(ports[0] as number).call('CLUSTER', 'KEYSLOT', key))
        const ranges = (await admin(ports[0] as number).call('CLUSTER', 'SLOTS')) as [
          number,
          number,
          [string, number, ...unknown[]],
        ][]
        const range = ranges.find(([from, to]) => slot >= from && slot <= to)
        if (range === undefined) throw new Error(`no node serves slot ${slot}`)
        return range[2][1]
      },
      signal: (port, name) => {
        children.get(port)?.kill(name)
      },
      errorStats: async () => {
        const stats = new Map<number, Record<string, number>>()
        for (const port of ports) {
          const text = await admin(port).info('errorstats')
          const counts: Record<string, number> = {}
          for (const [, name, count] of text.matchAll(/^errorstat_(\w+):count=(\d+)/gm)) {
            counts[name as string] = Number(count)
          }
          stats.set(port, counts)
        }
        return stats
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** One cluster node in `dir`, no persistence, never left behind by the test process. */
function startNode(dir: string, port: number): ChildProcess {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      // A node hung for a few seconds is not counted as failed, and the others keep
      // serving their own slots whatever happens to it.
      '--cluster-node-timeout',
      '60000',
      '--cluster-require-full-coverage',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  )
  const orphaned = () => child.kill('SIGKILL')
  process.once('exit', orphaned)
  child.once('exit', () => process.off('exit', orphaned))
  return child
}
