import { createVenue, type Venue, VenueError } from '../index.js'
import { startSimulator } from '../simulator/index.js'
import { integerOption, parseCommand } from './args.js'
import { clock, coinSymbol, table } from './render.js'
import { untilSignal } from './simulate-command.js'

/**
 * `venue-rx demo`: starts the embedded simulator and shows, live, what the REST client
 * reads from it. Runs until Ctrl-C on a terminal; for `--seconds` (default 5 when the
 * output is not a terminal) otherwise.
 */
export async function demoCommand(argv: readonly string[]): Promise<void> {
  const values = parseCommand(argv, ['seed', 'seconds', 'pool', 'tick-ms'])
  const tty = process.stdout.isTTY === true
  const seconds = integerOption(values, 'seconds', tty ? 0 : 5, 0, 86_400)
  const simulator = await startSimulator({
    seed: integerOption(values, 'seed', 1, 0, 2 ** 31 - 1),
    tickMs: integerOption(values, 'tick-ms', 250, 1, 60_000),
  })
  const venue = createVenue({ baseUrl: simulator.url, apiKey: simulator.apiKey })
  const poolId = integerOption(values, 'pool', 0, 0, 1_000_000)
  const stop = new AbortController()
  void untilSignal().then(() => stop.abort())
  const deadline = seconds === 0 ? Number.POSITIVE_INFINITY : Date.now() + seconds * 1000

  try {
    let frame = 0
    while (!stop.signal.aborted && Date.now() < deadline) {
      const started = performance.now()
      const lines = await readFrame(venue, poolId, stop.signal)
      const took = performance.now() - started
      frame += 1
      const header = `venue-rx demo  ${simulator.url}  frame ${frame}  (${took.toFixed(1)} ms for ${REQUESTS_PER_FRAME} requests)`
      process.stdout.write(
        tty
          ? `\x1b[2J\x1b[H${header}\n${lines.join('\n')}\n\nCtrl-C to stop.\n`
          : `${header}\n${lines.join('\n')}\n\n`,
      )
      await sleep(1000, stop.signal)
    }
  } catch (error) {
    if (!(error instanceof VenueError && error.code === 'VENUE_ABORTED')) throw error
  } finally {
    await venue.close()
    await simulator.close()
  }
}

const REQUESTS_PER_FRAME = 7

async function readFrame(venue: Venue, poolId: number, signal: AbortSignal): Promise<string[]> {
  const o = { signal }
  const [ping, pools, book, v1, trades, balances, open] = await Promise.all([
    venue.rest.ping(o),
    venue.rest.pools(undefined, o),
    venue.rest.depth({ poolId, limit: 5 }, o),
    venue.rest.depth({ poolId, limit: 1, source: 'v1' }, o),
    venue.rest.latestTrades({ poolId, limit: 5 }, o),
    venue.rest.balances(o),
    venue.rest.openOrders({ limit: 5 }, o),
  ])
  const pool = pools.find((p) => p.pool_id === poolId)
  const name =
    pool === undefined
      ? `pool ${poolId}`
      : `${coinSymbol(pool.base_coin)}/${coinSymbol(pool.quote_coin)}`
  return [
    `simulated time ${new Date(ping.timestamp).toISOString()}`,
    '',
    'POOLS (GET /api/v1/pools)',
    ...table(
      [
        ['id', 3, 'right'],
        ['pair', 10],
        ['last', 12, 'right'],
        ['24h change', 11, 'right'],
        ['trades', 7, 'right'],
        ['volume', 16, 'right'],
      ],
      pools.map((p) => [
        String(p.pool_id),
        `${coinSymbol(p.base_coin)}/${coinSymbol(p.quote_coin)}`,
        p.last_price,
        `${(p.change_rate * 100).toFixed(2)}%`,
        String(p.trades),
        p.volume,
      ]),
    ),
    '',
    `ORDER BOOK ${name} (GET /api/v1/depth/v2, limit 5; V1 best ${v1.bids[0]?.[0] ?? '-'} / ${v1.asks[0]?.[0] ?? '-'})`,
    ...table(
      [
        ['side', 4],
        ['price', 14, 'right'],
        ['quantity', 16, 'right'],
      ],
      [
        ...[...book.asks].reverse().map(([price, qty]) => ['ask', price, qty]),
        ...book.bids.map(([price, qty]) => ['bid', price, qty]),
      ],
    ),
    '',
    `LATEST TRADES ${name} (GET /api/v1/latest-trades/v2)`,
    ...table(
      [
        ['time', 12],
        ['side', 4],
        ['price', 14, 'right'],
        ['quantity', 16, 'right'],
      ],
      trades.map((t) => [clock(t.traded_at), t.side, t.price, t.quantity]),
    ),
    '',
    'ACCOUNT BALANCES (GET /api/v1/balances)',
    ...table(
      [
        ['coin', 6],
        ['balance', 20, 'right'],
        ['locked', 20, 'right'],
      ],
      balances.map((b) => [coinSymbol(b.coin), b.balance, b.locked]),
    ),
    '',
    `OPEN ORDERS (GET /api/v1/open-orders, newest 5)`,
    ...table(
      [
        ['id', 12],
        ['side', 4],
        ['price', 14, 'right'],
        ['amount', 14, 'right'],
        ['filled', 14, 'right'],
      ],
      open.map((order) => [
        order.id,
        order.side === 0 ? 'buy' : 'sell',
        order.order_price,
        order.order_amount,
        order.executed_amount,
      ]),
    ),
  ]
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}
