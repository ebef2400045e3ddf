/**
 * A real `redis-server` (the Debian package; `.ci/run` installs it) on a free port, in its
 * own temporary directory, with an append-only file so that a restart keeps what was
 * written (or, with `persist: false`, none: a restart loses everything). `restart()` stops it (SIGTERM: Redis writes its file and exits) and starts it
 * again on the same port; `stop()` leaves it down until `start()`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RedisServer {
  readonly port: number
  readonly url: string
  /** Starts it again after `stop()`, on the same port and with the same data. */
  start(): Promise<void>
  /** Stops it (SIGTERM), its data kept. */
  stop(): Promise<void>
  restart(): Promise<void>
  /** Stops it and removes its data. */
  close(): Promise<void>
  /** Sends a signal to the running server (`SIGSTOP` hangs it, `SIGCONT` wakes it). */
  signal(name: NodeJS.Signals): void
}

/** How the server runs. */
export interface RedisServerOptions {
  /** Keep the data across a restart (an append-only file). Default true. */
  readonly persist?: boolean
  /** Require this password (`requirepass`). */
  readonly password?: string
}

/** A free TCP port on 127.0.0.1 (free at the time of asking). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/**
 * A free TCP port below the range the system hands out for `listen(0)` and outgoing
 * connections (32768 and up on Linux): a port no simulator, `freePort()` or socket of
 * another test takes while the server on it is down between `stop()` and `start()` (a
 * port of that range, freed by `stop()`, was once taken under load before the server
 * came back: it then exits at once).
 */
async function serverPort(): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const server = createServer()
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      return port
    }
    if (attempt >= 50) throw new Error('no free port from 20000 to 31999')
  }
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const { persist = true, password } = options
  let port = await serverPort()
  const dir = mkdtempSync(join(tmpdir(), 'venue-rx-redis-'))
  let child: ChildProcess | undefined

  const start = async () => {
    const server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        persist ? 'yes' : 'no',
        '--appendfsync',
        'always',
        ...(password === undefined ? [] : ['--requirepass', password]),
      ],
      { stdio: 'ignore' },
    )
    child = server
    // Never left behind by a test process that ends without closing it.
    const orphaned = () => server.kill('SIGKILL')
    process.once('exit', orphaned)
    server.once('exit', () => process.off('exit', orphaned))
    const exited = new Promise<never>((_, reject) =>
      server.once('exit', (code) => reject(new Error(`redis-server exited (${code})`))),
    )
    exited.catch(() => undefined)
    await Promise.race([untilAnswers(port), exited])
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (running === undefined || running.exitCode !== null) return
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
    running.kill('SIGTERM')
    await exited
  }
  // Another process may take the free port before the server binds it (the server then
  // exits at once): a new port, a few times.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await start()
      break
    } catch (error) {
      if (attempt >= 3) throw error
      port = await serverPort()
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    restart: async () => {
      await stop()
      await start()
    },
    close: async () => {
      child?.kill('SIGCONT')
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
    signal: (name) => {
      child?.kill(name)
    },
  }
}

/** Resolves once the server at `port` answers PING (within 10 s). */
async function untilAnswers(port: number): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (await pings(port)) return
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket()
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('error', () => done(false))
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'))
    // A server that wants a password answers NOAUTH: it is up.
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())))
  })
}
