/**
 * The Prometheus metrics of one relay (prom-client, in a registry of the relay's own, never
 * the process-wide default one), and the HTTP server that serves them.
 */

import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type Server } from 'node:http'
import { Counter, Gauge, Registry } from 'prom-client'
import { isWholeNumber } from '../checks.js'
import { VenueError } from '../errors/venue-error.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { VenueRelayError } from '../errors/venue-relay-error.js'

/** Where {@link startRelay} serves its metrics by default: this machine only. */
export const DEFAULT_METRICS_HOST = '127.0.0.1'

/**
 * What a relay counts, per stream, as Prometheus metrics: the requests its publisher made
 * to the venue, the events it published, when it last published, its lease changes and
 * whether it holds the lease, and the Redis failures that ended a lease attempt or a
 * session.
 *
 * A venue request is counted for the stream whose publisher made it: each publisher runs
 * in an `AsyncLocalStorage` context named after its stream, and the venue counts every
 * request it hands to its HTTP pool (after identical requests were merged into one, so
 * each counted request is one the venue received) in the context it was made in.
 *
 * @example
 * ```ts
 * const metrics = new RelayMetrics(['depth:1'], () => ({ 'depth:1': 'active' }))
 * metrics.within('depth:1', () => metrics.requestMade())
 * await metrics.text() // '# HELP venue_rx_relay_venue_requests_total ...'
 * ```
 */
export class RelayMetrics {
  readonly registry = new Registry()
  readonly #stream = new AsyncLocalStorage<string>()
  readonly #requests: Counter<'stream'>
  readonly #published: Counter<'stream'>
  readonly #lastPublish: Gauge<'stream'>
  readonly #leaseChanges: Counter<'stream' | 'change'>
  readonly #redisErrors: Counter<'stream'>
  /** Per stream, when it last published (performance.now(), ms). */
  readonly #publishedAt = new Map<string, number>()

  constructor(streams: readonly string[], status: () => Readonly<Record<string, string>>) {
    const registers = [this.registry]
    this.#requests = new Counter({
      name: 'venue_rx_relay_venue_requests_total',
      help: 'Requests the stream publisher sent to the venue (retries included).',
      labelNames: ['stream'],
      registers,
    })
    this.#published = new Counter({
      name: 'venue_rx_relay_events_published_total',
      help: 'Events the relay added to the stream in Redis.',
      labelNames: ['stream'],
      registers,
    })
    this.#lastPublish = new Gauge({
      name: 'venue_rx_relay_last_publish_timestamp_seconds',
      help: 'When the relay last added an event to the stream, Unix time.',
      labelNames: ['stream'],
      registers,
    })
    const publishedAt = this.#publishedAt
    new Gauge({
      name: 'venue_rx_relay_seconds_since_last_publish',
      help: 'Seconds since the relay last added an event to the stream (only once it has).',
      labelNames: ['stream'],
      registers,
      collect() {
        const now = performance.now()
        for (const [stream, at] of publishedAt) this.set({ stream }, (now - at) / 1000)
      },
    })
    new Gauge({
      name: 'venue_rx_relay_active',
      help: '1 while this relay holds the stream lease and publishes it, else 0.',
      labelNames: ['stream'],
      registers,
      collect() {
        for (const [stream, state] of Object.entries(status())) {
          this.set({ stream }, state === 'active' ? 1 : 0)
        }
      },
    })
    this.#leaseChanges = new Counter({
      name: 'venue_rx_relay_lease_changes_total',
      help: 'Times this relay took the stream lease (acquired) or stopped publishing without being closed (lost).',
      labelNames: ['stream', 'change'],
      registers,
    })
    this.#redisErrors = new Counter({
      name: 'venue_rx_relay_redis_errors_total',
      help: 'Redis failures (a command or the connection) that ended a lease attempt or a publishing session of the stream.',
      labelNames: ['stream'],
      registers,
    })
    // Every series from the start, at 0: a rate over them works from the first scrape.
    for (const stream of streams) {
      this.#requests.inc({ stream }, 0)
      this.#published.inc({ stream }, 0)
      this.#leaseChanges.inc({ stream, change: 'acquired' }, 0)
      this.#leaseChanges.inc({ stream, change: 'lost' }, 0)
      this.#redisErrors.inc({ stream }, 0)
    }
  }

  /** Runs `work` (a stream's publisher) so that the venue requests it makes count for `stream`. */
  within<T>(stream: string, work: () => T): T {
    return this.#stream.run(stream, work)
  }

  /** One request sent to the venue, counted for the publisher it was made for. */
  requestMade(): void {
    const stream = this.#stream.getStore()
    if (stream !== undefined) this.#requests.inc({ stream })
  }

  /** `events` entries added to `stream` in Redis (one call of a poll's events). */
  published(stream: string, events = 1): void {
    if (events <= 0) return
    this.#published.inc({ stream }, events)
    this.#lastPublish.set({ stream }, Date.now() / 1000)
    this.#publishedAt.set(stream, performance.now())
  }

  /** This relay took the lease of `stream` and publishes it. */
  leaseAcquired(stream: string): void {
    this.#leaseChanges.inc({ stream, change: 'acquired' })
  }

  /** This relay stopped publishing `stream` (lease lost, failure, stream ended), not on close. */
  leaseLost(stream: string): void {
    this.#leaseChanges.inc({ stream, change: 'lost' })
  }

  /**
   * A lease attempt or a session of `stream` failed: counted when Redis failed (a
   * `VenueRelayError`, or ioredis's own error), not when the venue did.
   */
  failed(stream: string, error: unknown): void {
    if (error instanceof VenueRelayError || !(error instanceof VenueError)) {
      this.#redisErrors.inc({ stream })
    }
  }

  /** The metrics in Prometheus's text format. */
  text(): Promise<string> {
    return this.registry.metrics()
  }
}

/** The metrics server of a relay. */
export interface MetricsServer {
  /** Where the metrics are, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string
  close(): Promise<void>
}

/**
 * Checks `metricsPort` and `metricsHost` of `startRelay`: a port 0-65535 (0: any free
 * one) or none, a host only with a port.
 */
export function checkMetricsOptions(
  port: unknown,
  host: unknown,
): { readonly port: number; readonly host: string } | undefined {
  if (port !== undefined) {
    if (!isWholeNumber(port, 0, 65_535)) {
      throw new VenueInputError(
        'metricsPort',
        'startRelay: metricsPort must be an integer from 0 to 65535 (0: any free port)',
      )
    }
  }
  if (host !== undefined) {
    if (typeof host !== 'string' || host.trim() === '' || /[\s/]/.test(host)) {
      throw new VenueInputError(
        'metricsHost',
        'startRelay: metricsHost must be a host name or IP address to listen on',
      )
    }
    if (port === undefined) {
      throw new VenueInputError('metricsHost', 'startRelay: metricsHost needs metricsPort')
    }
  }
  return port === undefined ? undefined : { port, host: host ?? DEFAULT_METRICS_HOST }
}

/**
 * Serves `metrics` at `GET /metrics` on `host:port` (anything else answers 404). Rejects
 * with `VenueInputError` naming `metricsPort` when it cannot listen there (in use, not
 * allowed).
 */
export async function serveMetrics(
  metrics: RelayMetrics,
  { port, host }: { readonly port: number; readonly host: string },
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('not found: the metrics are at /metrics\n')
      return
    }
    metrics.text().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        response.end(`${error instanceof Error ? error.message : String(error)}\n`)
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new VenueInputError(
          'metricsPort',
          `startRelay: cannot serve metrics on ${host}:${port}: ${error.code ?? error.message}`,
        ),
      ),
    )
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  const shown = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${shown}:${bound}/metrics`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        // A scraper's kept-alive connection would hold the close up.
        server.closeAllConnections()
      })
      return closing
    },
  }
}
