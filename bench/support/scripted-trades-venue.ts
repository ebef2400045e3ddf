/**
 * A venue of the bench's own for the own-trades feeds: a small node:http server (in the
 * bench's process, so that it shares the bench's clock) whose trades become visible when
 * the bench says, to the millisecond. It serves what `watchMyTrades` and `watchFills` ask
 * for, with the venue's envelope, the `Authorization` check of the account endpoints and
 * the filter names of the library's defaults:
 *
 *   /api/v1/trades        pool_id, global_seq (greater only), after / before (Unix seconds,
 *                         exclusive), sort (asc | desc, default desc, by timestamp then
 *                         global_seq), limit (1..100, default 50); meta.total
 *   /api/v1/info          the account (its chain account is every trade's taker)
 *   /api/v1/ping          the server's time, Unix seconds
 *   /api/v1/balances, /open-orders, /history-orders, /transfers   empty lists
 *
 * Any other path answers 404 and is counted in `unknownRoutes`, so that a feed asking
 * for something new shows in the bench's output instead of failing quietly.
 *
 * A trade is hidden until its `visibleAt` (`performance.now()` ms of this process): a
 * request that arrives earlier does not see it, one at or after does. That is how the
 * bench makes a trade appear live, or late (visible after a later one).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A trade the bench schedules. */
export interface ScriptedTrade {
  /** `global_seq`; ascending across every `add` call. */
  readonly seq: number
  /** The trade's `timestamp`, Unix seconds (when it happened, by the venue's clock). */
  readonly timestampSec: number
  /** When requests start seeing it, `performance.now()` ms; 0 for at once. */
  readonly visibleAt: number
}

/** A running scripted venue. */
export interface ScriptedVenue {
  readonly url: string
  readonly apiKey: string
  /** The account's chain account (the taker of every trade). */
  readonly account: string
  /** Adds trades (ascending `seq`, after every earlier one). */
  add(trades: readonly ScriptedTrade[]): void
  /** When `seq` became (or becomes) visible, `performance.now()` ms. */
  visibleAt(seq: number): number | undefined
  /** When an answer first listed `seq`, `performance.now()` ms (as the request arrived). */
  firstServedAt(seq: number): number | undefined
  /** Arrival times of every `/api/v1/trades` request, `performance.now()` ms. */
  readonly tradeRequests: readonly number[]
  /** Arrival times of every request, whatever its path. */
  readonly requests: readonly number[]
  /** Paths asked for that this venue does not serve (404). */
  readonly unknownRoutes: readonly string[]
  close(): Promise<void>
}

interface Stored {
  readonly seq: number
  readonly timestampSec: number
  readonly visibleAt: number
  /** The record as JSON, written once. */
  readonly json: string
  firstServedAt: number | undefined
}

const ACCOUNT = 'bench.trader'
const API_KEY = 'k-bench0000000000000000000000000000000000'
const ACCOUNT_PATHS = new Set([
  '/api/v1/info',
  '/api/v1/trades',
  '/api/v1/balances',
  '/api/v1/open-orders',
  '/api/v1/history-orders',
  '/api/v1/transfers',
])
const EMPTY_LISTS = new Set([
  '/api/v1/balances',
  '/api/v1/open-orders',
  '/api/v1/history-orders',
  '/api/v1/transfers',
])

/** The trade record of `seq`: a sell of 1 CHN by the account (taker) to a market maker. */
function tradeJson(seq: number, timestampSec: number): string {
  return JSON.stringify({
    global_seq: seq,
    tx_id: seq.toString(16).padStart(64, '0'),
    pool_id: 0,
    base_coin: 'chain.token-CHN',
    quote_coin: 'usdt.ext-USDT',
    base_quantity: '1.0000',
    quote_quantity: '1.045000',
    price: '1.0450',
    timestamp: timestampSec,
    taker: ACCOUNT,
    taker_fee: '0.003135',
    taker_is_bid: false,
    taker_order_id: 2 * seq,
    taker_order_cid: `bench-${seq}`,
    taker_permission: 'active',
    maker: 'mm.bench',
    maker_fee: '0.001',
    maker_order_id: 2 * seq + 1,
    maker_order_cid: '',
    maker_permission: 'active',
  })
}

function send(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  data: string,
  meta = '{}',
) {
  const body = `{"code":${code},"message":${JSON.stringify(message)},"data":${data},"meta":${meta}}`
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  })
  response.end(body)
}

/** An optional whole-number query parameter; `null` when present but not one. */
function integerParam(query: URLSearchParams, name: string): number | undefined | null {
  const text = query.get(name)
  if (text === null) return undefined
  return /^-?\d+$/.test(text) ? Number(text) : null
}

/** Starts a scripted venue on a free port of 127.0.0.1 with no trades. */
export async function startScriptedVenue(): Promise<ScriptedVenue> {
  const trades: Stored[] = []
  const bySeq = new Map<number, Stored>()
  const tradeRequests: number[] = []
  const requests: number[] = []
  const unknownRoutes: string[] = []

  const listTrades = (query: URLSearchParams, now: number, response: ServerResponse): void => {
    tradeRequests.push(now)
    const poolId = integerParam(query, 'pool_id')
    const afterSeq = integerParam(query, 'global_seq')
    const after = integerParam(query, 'after')
    const before = integerParam(query, 'before')
    const limit = integerParam(query, 'limit') ?? 50
    const sort = query.get('sort') ?? 'desc'
    if (
      poolId === null ||
      afterSeq === null ||
      after === null ||
      before === null ||
      limit === null ||
      limit < 1 ||
      limit > 100 ||
      (sort !== 'asc' && sort !== 'desc')
    ) {
      send(response, 400, 400, 'invalid parameter', 'null')
      return
    }
    // Sequence order is timestamp-then-sequence order here (a trade's timestamp is never
    // after a later trade's), so the ascending list needs no sort.
    let first = 0
    if (afterSeq !== undefined) {
      let high = trades.length
      while (first < high) {
        const mid = (first + high) >>> 1
        if ((trades[mid] as Stored).seq > afterSeq) high = mid
        else first = mid + 1
      }
    }
    const matching: Stored[] = []
    for (let i = first; i < trades.length; i += 1) {
      const trade = trades[i] as Stored
      if (
        trade.visibleAt <= now &&
        (poolId === undefined || poolId === 0) &&
        (after === undefined || trade.timestampSec > after) &&
        (before === undefined || trade.timestampSec < before)
      ) {
        matching.push(trade)
      }
    }
    const page = sort === 'asc' ? matching.slice(0, limit) : matching.slice(-limit).reverse()
    for (const trade of page) trade.firstServedAt ??= now
    send(
      response,
      200,
      0,
      '',
      `[${page.map((trade) => trade.json).join(',')}]`,
      `{"total":${matching.length}}`,
    )
  }

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const now = performance.now()
    requests.push(now)
    const url = new URL(request.url ?? '/', 'http://venue')
    const path = url.pathname
    if (request.method !== 'GET') {
      send(response, 405, 405, 'method not allowed', 'null')
      return
    }
    if (ACCOUNT_PATHS.has(path) && request.headers.authorization !== API_KEY) {
      send(response, 400, 0, 'invalid API key', 'null')
      return
    }
    if (path === '/api/v1/trades') listTrades(url.searchParams, now, response)
    else if (path === '/api/v1/ping') {
      send(response, 200, 0, '', `{"timestamp":${Math.floor(Date.now() / 1000)}}`)
    } else if (path === '/api/v1/info') {
      send(
        response,
        200,
        0,
        '',
        JSON.stringify({
          chain_account: ACCOUNT,
          parent_chain_account: 'venue.users',
          permission: 'active',
        }),
      )
    } else if (EMPTY_LISTS.has(path)) send(response, 200, 0, '', '[]', '{"total":0}')
    else {
      unknownRoutes.push(path)
      send(response, 404, 404, 'not found', 'null')
    }
  }

  const server = createServer(handle)
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: API_KEY,
    account: ACCOUNT,
    tradeRequests,
    requests,
    unknownRoutes,
    add(added) {
      for (const { seq, timestampSec, visibleAt } of added) {
        const last = trades.at(-1)
        if (last !== undefined && (seq <= last.seq || timestampSec < last.timestampSec)) {
          throw new RangeError(`scripted venue: trade ${seq} is not after trade ${last.seq}`)
        }
        const stored: Stored = {
          seq,
          timestampSec,
          visibleAt,
          json: tradeJson(seq, timestampSec),
          firstServedAt: undefined,
        }
        trades.push(stored)
        bySeq.set(seq, stored)
      }
    },
    visibleAt: (seq) => bySeq.get(seq)?.visibleAt,
    firstServedAt: (seq) => bySeq.get(seq)?.firstServedAt,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
