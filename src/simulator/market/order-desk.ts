/**
 * Orders from outside the market: `placeOrder` and `cancelOrder` of the {@link Market}
 * (and of the running simulator). Requests are checked in full before anything changes;
 * a valid order then goes through the pool's own matching engine like every order of the
 * simulated traders, at the current simulated time, so it shows in the account
 * endpoints, the books, the trades and the balances the same way.
 *
 * Error messages name the field and quote a value only when it is plain decimal text, a
 * number or a short identifier: an API key (or a part of one) never appears in them.
 *
 * @packageDocumentation
 */
import type { KeyedAccount } from './accounts.js'
import { formatFixed, pow10 } from './fixed-point.js'
import type { MarketCore } from './market-core.js'
import { type Order, orderKey, type Side } from './order.js'
import type { PoolSpec } from './pool-spec.js'
import type { PlacedOrder, PlaceOrderRequest } from './types.js'

/** The fields a {@link PlaceOrderRequest} may have. */
const FIELDS: ReadonlySet<string> = new Set([
  'account',
  'poolId',
  'side',
  'type',
  'price',
  'amount',
  'clientId',
  'hiddenForTicks',
])

/** A decimal as `placeOrder` takes it: digits, maybe a fraction; no sign, no exponent. */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** Longest decimal text taken (far beyond any real amount). */
const MAX_DECIMAL_LENGTH = 64

/** A client id: 1 to 64 visible ASCII characters. */
const CLIENT_ID = /^[\x21-\x7e]{1,64}$/

/** Composite order id `{pool_id}-{order_id}-{side}`. */
const ORDER_ID = /^(\d{1,15})-(\d{1,15})-([01])$/

/** Text that is safe to quote in an error: it cannot hold an API key (`k-` and 36 letters). */
const QUOTABLE_DECIMAL = /^[0-9.+\-eE]{1,40}$/
const QUOTABLE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,39}$/

/** A value for an error message, quoted only when it cannot be (part of) a secret. */
function shown(value: unknown, quotable: RegExp = QUOTABLE_DECIMAL): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return quotable.test(value) ? JSON.stringify(value) : '(not shown)'
  return kind(value)
}

/** What a value is, for a type error (never the value itself). */
function kind(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'object' ? 'an object' : `a ${type}`
}

function typeError(method: string, message: string): never {
  throw new TypeError(`${method}: ${message}`)
}

function rangeError(method: string, message: string): never {
  throw new RangeError(`${method}: ${message}`)
}

/** The checked form of a request, in engine units. */
interface CheckedOrder {
  readonly account: KeyedAccount
  readonly pool: PoolSpec
  readonly side: Side
  readonly type: 0 | 1
  readonly price: bigint
  readonly amount: bigint
  readonly cid: string
  readonly hiddenForTicks: number
}

/**
 * Takes orders into a market and cancels working ones: the `placeOrder` and `cancelOrder`
 * of the market `createMarket` builds.
 *
 * @example
 * ```ts
 * const desk = new OrderDesk(core)
 * const { id } = desk.place({ poolId: 0, side: 'buy', type: 'limit', price: '1.0400', amount: '10' })
 * desk.cancel(id) // true
 * ```
 */
export class OrderDesk {
  readonly #core: MarketCore
  /** Last number of a generated client id `sim-<n>`. */
  #generated = 0

  constructor(core: MarketCore) {
    this.#core = core
  }

  /**
   * Checks `request`, submits it to its pool's engine and returns the composite id and the
   * client id. Throws a `TypeError` (wrong type) or `RangeError` (bad value) naming the
   * field; nothing changes then.
   */
  place(request: PlaceOrderRequest): PlacedOrder {
    const checked = this.#check(request)
    const order: Order = this.#core.submit(checked.pool.id, {
      account: checked.account.name,
      side: checked.side,
      type: checked.type,
      amount: checked.amount,
      ...(checked.type === 1 ? { price: checked.price } : {}),
      cid: checked.cid,
    })
    if (checked.hiddenForTicks > 0) {
      checked.account.hiddenUntil.set(order, this.#core.ticks + checked.hiddenForTicks)
    }
    return { id: orderKey(order.pool.id, order.orderId, order.side), clientId: order.cid }
  }

  /**
   * Cancels the working order with composite id `id`, of any account. Throws a `RangeError`
   * for a malformed or unknown id and for an order that is already final.
   */
  cancel(id: string): true {
    const method = 'cancelOrder'
    if (typeof id !== 'string') typeError(method, `id must be a string (got ${kind(id)})`)
    const match = ORDER_ID.exec(id)
    if (match === null) {
      rangeError(method, `id ${shown(id)} is not an order id {pool_id}-{order_id}-{side}`)
    }
    const key = `${Number(match[1])}-${Number(match[2])}-${match[3]}`
    const order = this.#core.orders.get(key)
    if (order === undefined) rangeError(method, `id ${shown(id)}: no such order`)
    if (order.history) {
      rangeError(method, `id ${shown(id)}: the order is already final (status ${order.status})`)
    }
    if (!this.#core.cancel(order)) rangeError(method, `id ${shown(id)}: the order is not working`)
    return true
  }

  #check(request: PlaceOrderRequest): CheckedOrder {
    const method = 'placeOrder'
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      typeError(method, `the request must be an object (got ${kind(request)})`)
    }
    for (const name of Object.keys(request)) {
      if (!FIELDS.has(name)) {
        const what = QUOTABLE_NAME.test(name) ? ` ${JSON.stringify(name)}` : ''
        rangeError(method, `unknown field${what} (fields: ${[...FIELDS].join(', ')})`)
      }
    }
    const account = this.#account(request.account)
    const pool = this.#pool(request.poolId)
    const side = pick(request.side, 'side', { buy: 0, sell: 1 } as const)
    const type = pick(request.type, 'type', { market: 0, limit: 1 } as const)
    let price = 0n
    if (type === 0) {
      if (request.price !== undefined) {
        rangeError(method, 'price must be left out for a market order (it takes the best prices)')
      }
    } else {
      if (request.price === undefined) rangeError(method, 'price is required for a limit order')
      price = decimal(request.price, 'price', pool.pricePrecision)
    }
    const amount = decimal(request.amount, 'amount', pool.basePrecision)
    if (amount % pool.lot !== 0n) {
      const lot = formatFixed(pool.lot, pool.basePrecision)
      rangeError(
        method,
        `amount ${shown(request.amount)} must be a multiple of ${lot}, the pool's min_amount`,
      )
    }
    return {
      account,
      pool,
      side,
      type,
      price,
      amount,
      cid: this.#clientId(request.clientId, account),
      hiddenForTicks: hiddenTicks(request.hiddenForTicks),
    }
  }

  #account(apiKey: unknown): KeyedAccount {
    const { accounts } = this.#core
    if (apiKey === undefined) {
      const demo = accounts.keyed[0]
      if (demo === undefined) rangeError('placeOrder', 'account: the market has no accounts')
      return demo
    }
    // The value is never quoted: it is meant to be an API key.
    if (typeof apiKey !== 'string') {
      typeError('placeOrder', 'account must be the API key (a string) of a simulated account')
    }
    const account = accounts.byApiKey(apiKey)
    if (account === undefined) {
      rangeError('placeOrder', 'account is not the API key of a simulated account')
    }
    return account
  }

  #pool(poolId: unknown): PoolSpec {
    if (typeof poolId !== 'number') {
      typeError('placeOrder', `poolId must be a number (got ${kind(poolId)})`)
    }
    const pool = Number.isInteger(poolId) ? this.#core.pools[poolId] : undefined
    if (pool === undefined) {
      const last = this.#core.pools.length - 1
      rangeError('placeOrder', `poolId ${shown(poolId)} is not a pool (pools are 0 to ${last})`)
    }
    return pool
  }

  #clientId(clientId: unknown, account: KeyedAccount): string {
    if (clientId === undefined) {
      let cid: string
      do {
        this.#generated += 1
        cid = `sim-${this.#generated}`
      } while (account.byCid.has(cid))
      return cid
    }
    if (typeof clientId !== 'string') {
      typeError('placeOrder', `clientId must be a string (got ${kind(clientId)})`)
    }
    if (!CLIENT_ID.test(clientId) || clientId === '.' || clientId === '..') {
      rangeError(
        'placeOrder',
        'clientId must be 1 to 64 visible ASCII characters, not "." or ".." (it is a path segment)',
      )
    }
    // The live venue takes a client id again once its order ended: only the newest order
    // with it can still be working (the earlier ones were final when it was placed).
    if (account.byCid.get(clientId)?.history === false) {
      rangeError('placeOrder', 'clientId is already used by a working order of this account')
    }
    return clientId
  }
}

/** The engine code of a named choice (`side`, `type`). */
function pick<T extends Record<string, 0 | 1>>(
  value: unknown,
  field: string,
  choices: T,
): T[keyof T] {
  const names = Object.keys(choices)
  const list = names.map((name) => `'${name}'`).join(' or ')
  if (typeof value !== 'string')
    typeError('placeOrder', `${field} must be ${list} (got ${kind(value)})`)
  if (!Object.hasOwn(choices, value)) {
    rangeError('placeOrder', `${field} must be ${list} (got ${shown(value, QUOTABLE_NAME)})`)
  }
  return choices[value] as T[keyof T]
}

/** Positive decimal text with at most `decimals` fraction digits (trailing zeros aside), in units. */
function decimal(value: unknown, field: string, decimals: number): bigint {
  if (typeof value !== 'string') {
    typeError('placeOrder', `${field} must be a decimal string such as "1.5" (got ${kind(value)})`)
  }
  const match = value.length <= MAX_DECIMAL_LENGTH ? DECIMAL.exec(value) : null
  if (match === null) {
    rangeError(
      'placeOrder',
      `${field} ${shown(value)} is not a positive decimal string such as "1.5" (digits, maybe a point and more digits)`,
    )
  }
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (fraction.length > decimals) {
    rangeError('placeOrder', `${field} ${shown(value)} has more than ${decimals} decimals`)
  }
  const units =
    BigInt(match[1] ?? '0') * pow10(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (units <= 0n) rangeError('placeOrder', `${field} ${shown(value)} must be positive`)
  return units
}

/** `hiddenForTicks`: a whole number of ticks, default 0. */
function hiddenTicks(value: unknown): number {
  if (value === undefined) return 0
  if (typeof value !== 'number') {
    typeError('placeOrder', `hiddenForTicks must be a number of ticks (got ${kind(value)})`)
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    rangeError('placeOrder', `hiddenForTicks must be an integer >= 0 (got ${shown(value)})`)
  }
  return value
}
