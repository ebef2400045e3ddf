import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Market } from '../market/types.js'
import { createRequestAnswerer } from './answer-request.js'
import { serverError, tooManyRequests } from './error-replies.js'
import type { FaultPlan } from './fault-plan.js'
import { Faults } from './faults.js'
import type { Reply } from './reply.js'
import { writeReply } from './write-reply.js'

const BASE_URL = 'http://simulator.invalid'

/** The request target as a URL; one that cannot be parsed maps to a path no route has. */
function requestUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', BASE_URL)
  } catch {
    return new URL('/invalid-request-target', BASE_URL)
  }
}

/**
 * Settings of {@link createSimulatorServer}.
 *
 * @example
 * ```ts
 * import {
 *   createMarket,
 *   createSimulatorServer,
 *   Faults,
 *   type SimulatorServerOptions,
 * } from 'venue-rx/simulator'
 *
 * const options: SimulatorServerOptions = {
 *   market: createMarket({ seed: 1, tickMs: 250 }),
 *   faults: new Faults({ spec: { latencyMs: [5, 50] } }),
 * }
 * createSimulatorServer(options).listen(0, '127.0.0.1')
 * ```
 */
export interface SimulatorServerOptions {
  /** The market to serve. */
  readonly market: Market
  /** The fault controller; default one with no faults. */
  readonly faults?: Faults
}

/**
 * Creates (does not start) the simulator's HTTP server: every endpoint of the venue
 * section 4 over `market`, with the live service's envelope, auth and errors, and the
 * faults of `faults` applied per request. Stop it with `stopSimulatorServer`, which
 * also ends hanging requests.
 *
 * @example
 * ```ts
 * const server = createSimulatorServer({ market, faults: new Faults({ seed: 1 }) })
 * server.listen(0, '127.0.0.1')
 * // ...
 * await stopSimulatorServer(server)
 * ```
 */
export function createSimulatorServer(options: SimulatorServerOptions): Server {
  const faults = options.faults ?? new Faults()
  const answer = createRequestAnswerer(options.market)
  const delayed = new Set<NodeJS.Timeout>()

  const replyFor = (request: IncomingMessage, url: URL, plan: FaultPlan): Reply => {
    if (plan.action === 'error') return serverError(plan.errorStatus)
    if (plan.action === 'rateLimit') return tooManyRequests(plan.retryAfterSeconds)
    return answer({
      method: request.method ?? 'GET',
      url,
      authorization: request.headers.authorization,
    })
  }

  const act = (request: IncomingMessage, response: ServerResponse, url: URL, plan: FaultPlan) => {
    if (response.destroyed || request.socket.destroyed) return
    if (plan.action === 'reset') {
      request.socket.resetAndDestroy()
      return
    }
    writeReply(response, replyFor(request, url, plan), plan)
  }

  const server = createServer((request, response) => {
    const url = requestUrl(request.url)
    const plan = faults.decide(url.pathname)
    // A hanging request is never answered; stopSimulatorServer destroys its socket.
    if (plan.action === 'hang') return
    if (plan.delayMs <= 0) {
      act(request, response, url, plan)
      return
    }
    const timer = setTimeout(() => {
      delayed.delete(timer)
      act(request, response, url, plan)
    }, plan.delayMs)
    delayed.add(timer)
  })
  server.on('close', () => {
    for (const timer of delayed) clearTimeout(timer)
    delayed.clear()
  })
  return server
}
