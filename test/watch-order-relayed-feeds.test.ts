/**
 * `watchOrder` on a relay's feeds (`relayedOrderFeeds`) with a fake relay, on a virtual
 * clock: the order of events is set by the test, not by a machine's load. The relay's list
 * is read as a relayed `watchOpenOrders` reads it, its state at the subscription then each
 * change; its kept fills come when the test says they caught up. Every request of the
 * order stream to the venue is recorded.
 */
import { concat, NEVER, Observable, of, Subject, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { HealthBoard } from '../src/core/health.js'
import type { Fill, OpenOrder, OrderEvent, OrderWithTrades } from '../src/index.js'
import type { RestClient } from '../src/rest/index.js'
import { relayedOrderFeeds } from '../src/streams/order-feeds.js'
import type { StreamContext } from '../src/streams/stream-context.js'
import { venueLookups } from '../src/streams/venue-lookups.js'
import type { OpenOrderEvent } from '../src/streams/watch-open-orders.js'
import { watchOrder } from '../src/streams/watch-order.js'

const POLL_MS = 2_000

/** A resting limit sell of 2, order 0-25-1. */
const OPEN: OpenOrder = {
  id: '0-25-1',
  order_id: '25',
  order_cid: 'bot-1',
  pool_id: 0,
  pool_symbol: 'chain.token-CHN-usdt.ext-USDT',
  pool_base_coin: 'chain.token-CHN',
  pool_quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 2,
  quote_coin_precision: 4,
  side: 1,
  type: 1,
  order_price: '1.04',
  order_amount: '2',
  order_total: '2.08',
  avg_price: '0',
  executed_amount: '0',
  order_time: 1_700_000_000_000,
  trader: 'demo.trader',
}

/** The order filled whole, as the venue keeps it. */
const FILLED: OrderWithTrades = {
  ...OPEN,
  executed_amount: '2',
  avg_price: '1.04',
  filled_total: '2.08',
  history: true,
  permission: 'active',
  status: 2,
  unread: false,
  trades: [],
}

/** The fill that filled it. */
const FILL: Fill = {
  globalSeq: '7',
  txId: 'tx-7',
  poolId: 0,
  orderId: '25',
  clientId: 'bot-1',
  price: '1.04',
  quantity: '2',
  quoteQuantity: '2.08',
  fee: '0',
  feeCoin: 'usdt.ext-USDT',
  role: 'maker',
  side: 'sell',
  timestamp: 1_700_000_001_000,
}

/** A context on `scheduler` whose REST client records each request and never answers. */
function fakeContext(scheduler: VirtualTimeScheduler, requests: string[]): StreamContext {
  const rest = new Proxy({} as RestClient, {
    get: (_target, method) => () => {
      requests.push(String(method))
      return new Promise(() => {})
    },
  })
  return {
    rest: () => rest,
    closed: NEVER,
    health: new HealthBoard(),
    pollIntervalMs: POLL_MS,
    orderLookups: 3,
    fillGraceMs: 10_000,
    lookups: venueLookups(),
    scheduler,
  } as unknown as StreamContext
}

/**
 * A relay's open orders and kept fills: `openOrders()` replays the list as it stands (an
 * `opened` per order), then each change; the kept fills are delivered, then `tail`, when
 * `catchUp()` is called (a catch-up that takes a while on a loaded machine).
 */
function fakeRelay() {
  const listed = new Map<string, OpenOrder>()
  const changes = new Subject<OpenOrderEvent>()
  const kept: Fill[] = []
  const caughtUp = new Subject<void>()
  return {
    open(order: OpenOrder) {
      listed.set(order.id, order)
      changes.next({ type: 'opened', order })
    },
    fill(fill: Fill, final: OrderWithTrades) {
      kept.push(fill)
      const order = listed.get(final.id) as OpenOrder
      listed.delete(final.id)
      changes.next({ type: 'closed', order, status: 'filled', final })
    },
    catchUp: () => caughtUp.next(),
    streams: {
      openOrders: () =>
        concat(
          of(...[...listed.values()].map((order): OpenOrderEvent => ({ type: 'opened', order }))),
          changes,
        ),
      fills: ({ onProgress }: { onProgress?: ((progress: never) => void) | undefined }) =>
        new Observable<Fill>((subscriber) =>
          caughtUp.subscribe(() => {
            for (const fill of kept) subscriber.next(fill)
            onProgress?.({ phase: 'tail' } as never)
          }),
        ),
    },
  }
}

describe('watchOrder on a relay’s feeds', () => {
  it('an order the relay lists at the subscription, filled and closed while the kept fills catch up: followed to done from the relay, no request', () => {
    const scheduler = new VirtualTimeScheduler(undefined, 20 * POLL_MS)
    const requests: string[] = []
    const context = fakeContext(scheduler, requests)
    const relay = fakeRelay()
    relay.open(OPEN)
    const events: OrderEvent[] = []
    let completed = false
    const subscription = watchOrder(
      context,
      OPEN.id,
      {},
      relayedOrderFeeds(context, relay.streams),
    ).subscribe({
      next: (event) => events.push(event),
      complete: () => {
        completed = true
      },
    })
    // Before its fills are caught up, the relay closes the order: its list no longer shows
    // it. The catch-up takes three polls of the relay (ticks of the list meanwhile).
    relay.fill(FILL, FILLED)
    scheduler.schedule(() => relay.catchUp(), 3 * POLL_MS)
    scheduler.flush()
    subscription.unsubscribe()

    expect(requests).toEqual([])
    expect(events.map((event) => event.type)).toEqual(['fill', 'done'])
    expect(events.at(-1)).toMatchObject({ status: 'filled', reconciled: true, missing: '0' })
    expect(completed).toBe(true)
  })
})
