/**
 * Every public method of a venue as a table: argument arbitraries per method, a way to
 * call any of them with any argument list, and what each call came to (`settle`).
 */
import fc from 'fast-check'
import { firstValueFrom, isObservable, type Observable, of, take, timeout } from 'rxjs'
import type { RestMethodName, Venue } from '../../src/index.js'
import { argsObject, callOptions, mostly, nasty, valid } from './values.js'

/** Names of the `watch...` methods of a venue. */
export type WatchMethodName = Exclude<
  keyof Venue,
  'rest' | 'settings' | 'health' | 'freshness' | 'close'
>

/** Every REST method, in docs/rest.md's order. */
export const REST_METHODS: readonly RestMethodName[] = [
  'depth',
  'klines',
  'latestTrades',
  'accountInfo',
  'balances',
  'historyOrders',
  'openOrders',
  'order',
  'orderByClientId',
  'trades',
  'transfers',
  'ping',
  'systemInfo',
  'pools',
  'pool',
  'tokens',
  'token',
]

/** Every watch method, in docs/streams.md's order. */
export const WATCH_METHODS: readonly WatchMethodName[] = [
  'watchPools',
  'watchPool',
  'watchTokens',
  'watchSystemInfo',
  'watchAccount',
  'watchBalances',
  'watchOpenOrders',
  'watchDepth',
  'watchOrderBook',
  'watchTrades',
  'watchMyTrades',
  'watchTransfers',
  'watchFills',
  'watchOrder',
  'watchKlines',
]

/** One call of one method: its name and the argument list it gets. */
export interface FuzzCall {
  readonly method: RestMethodName | WatchMethodName
  readonly args: readonly unknown[]
}

const ORDER_FILTERS = {
  poolId: valid.poolId,
  side: valid.side,
  type: valid.side,
  status: valid.status,
  limit: valid.limit(100),
  offset: valid.offset,
}

const withOptions = (first: fc.Arbitrary<unknown>) =>
  fc.tuple(first, callOptions).map((args): unknown[] => args)
const optionsOnly = callOptions.map((options): unknown[] => [options])

/** Argument lists of every REST method: mostly valid, often not. */
export const REST_ARGS: Readonly<Record<RestMethodName, fc.Arbitrary<unknown[]>>> = {
  depth: withOptions(
    argsObject({
      poolId: valid.poolId,
      limit: valid.limit(5000),
      precision: valid.precision,
      source: valid.source,
    }),
  ),
  klines: withOptions(
    argsObject({
      poolId: valid.poolId,
      interval: valid.interval,
      start: valid.seconds,
      end: valid.seconds,
      source: valid.source,
    }),
  ),
  latestTrades: withOptions(
    argsObject({ poolId: valid.poolId, limit: valid.limit(100), source: valid.source }),
  ),
  accountInfo: optionsOnly,
  balances: optionsOnly,
  historyOrders: withOptions(argsObject(ORDER_FILTERS)),
  openOrders: withOptions(argsObject(ORDER_FILTERS)),
  order: withOptions(mostly(valid.orderRef)),
  orderByClientId: withOptions(mostly(valid.text)),
  trades: withOptions(
    argsObject({
      poolId: valid.poolId,
      limit: valid.limit(100),
      after: valid.seconds,
      before: valid.seconds,
      afterSeq: valid.unsignedId,
      sort: valid.sort,
    }),
  ),
  transfers: withOptions(
    argsObject({
      limit: valid.limit(1000),
      start: valid.seconds,
      end: valid.seconds,
      afterId: valid.unsignedId,
      sort: valid.sort,
    }),
  ),
  ping: optionsOnly,
  systemInfo: optionsOnly,
  pools: withOptions(
    argsObject({
      baseCoin: valid.text,
      quoteCoin: valid.text,
      limit: valid.limit(1000),
      offset: valid.offset,
    }),
  ),
  pool: withOptions(mostly(fc.oneof(valid.poolId, valid.text))),
  tokens: optionsOnly,
  token: withOptions(mostly(valid.text)),
}

/** A checkpoint: mostly a working `{ load, save }`, sometimes one that lacks a half. */
const checkpoint: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(undefined, '5', 5).map((saved) => ({
      load: () => saved,
      save: () => undefined,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      { load: () => undefined },
      { save: () => undefined },
      { load: 1, save: () => undefined },
      { load: () => undefined, save: 'x' },
      './cursor.json',
      null,
      [],
      () => undefined,
    ),
  },
)

const onProgress: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant(() => undefined) },
  { weight: 2, arbitrary: nasty },
)

const order: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('on-sight', 'ascending') },
  { weight: 1, arbitrary: nasty },
)

/** Up to two extra arguments, usually none, for the arity check. */
const extras: fc.Arbitrary<unknown[]> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<unknown[]>([]) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.constant(undefined), nasty), { maxLength: 2 }) },
)

const depthOptions = argsObject({
  limit: valid.limit(5000),
  precision: valid.precision,
  source: valid.source,
})

/** Argument lists of every watch method, extra arguments included. */
export const WATCH_ARGS: Readonly<Record<WatchMethodName, fc.Arbitrary<unknown[]>>> = {
  watchPools: extras,
  watchPool: fc
    .tuple(mostly(fc.oneof(valid.poolId, valid.text)), extras)
    .map(([id, more]) => [id, ...more]),
  watchTokens: extras,
  watchSystemInfo: extras,
  watchAccount: extras,
  watchBalances: fc
    .tuple(argsObject({ includeValuation: fc.boolean() }), extras)
    .map(([options, more]) => [options, ...more]),
  watchOpenOrders: extras,
  watchDepth: fc
    .tuple(mostly(valid.poolId), depthOptions, extras)
    .map(([id, options, more]) => [id, options, ...more]),
  watchOrderBook: fc
    .tuple(mostly(valid.poolId), depthOptions, extras)
    .map(([id, options, more]) => [id, options, ...more]),
  watchTrades: fc
    .tuple(mostly(valid.poolId), argsObject({ source: valid.source }), extras)
    .map(([id, options, more]) => [id, options, ...more]),
  watchMyTrades: fc
    .tuple(
      argsObject({
        poolId: valid.poolId,
        cursor: valid.feedCursor,
        checkpoint,
        onProgress,
        order,
      }),
      extras,
    )
    .map(([options, more]) => [options, ...more]),
  watchTransfers: fc
    .tuple(argsObject({ cursor: valid.feedCursor, checkpoint, onProgress, order }), extras)
    .map(([options, more]) => [options, ...more]),
  watchFills: fc
    .tuple(
      argsObject({
        poolId: valid.poolId,
        cursor: valid.fillCursor,
        checkpoint,
        onProgress,
        order,
      }),
      extras,
    )
    .map(([options, more]) => [options, ...more]),
  watchOrder: fc
    .tuple(
      mostly(
        fc.oneof(
          fc.constant('0-1-0'),
          fc.record({ poolId: valid.poolId, orderId: valid.unsignedId, side: valid.side }),
          fc.record({
            clientId: fc.oneof(valid.text, fc.constantFrom('.', '..', 'a\u0000b', 'a\ud800')),
          }),
        ),
      ),
      argsObject({
        visibleWithinMs: fc.nat({ max: 60_000 }),
        fillGraceMs: fc.nat({ max: 60_000 }),
        placedAfter: fc.constantFrom(0, 1_700_000_000_000),
      }),
      extras,
    )
    .map(([ref, options, more]) => [ref, options, ...more]),
  watchKlines: fc
    .tuple(
      mostly(valid.poolId),
      mostly(fc.constantFrom('1m', '5m', '1h', '1d', '1w', '1M')),
      argsObject({ source: valid.source }),
      extras,
    )
    .map(([id, interval, options, more]) => [id, interval, options, ...more]),
}

type AnyMethod = (...args: unknown[]) => unknown

/** Calls `venue.rest[method](...args)` as a plain JavaScript caller would: no type checks. */
export function invokeRest(venue: Venue, method: RestMethodName, args: readonly unknown[]) {
  return (venue.rest[method] as AnyMethod)(...args)
}

/** Calls `venue[method](...args)` as a plain JavaScript caller would. */
export function invokeWatch(venue: Venue, method: WatchMethodName, args: readonly unknown[]) {
  return (venue[method] as AnyMethod)(...args)
}

/** Whether a method name is a watch method. */
export function isWatchMethod(method: string): method is WatchMethodName {
  return (WATCH_METHODS as readonly string[]).includes(method)
}

/** What one call came to. */
export type Outcome =
  /** A REST promise resolved. */
  | { readonly kind: 'resolved'; readonly value: unknown }
  /** A REST promise rejected. */
  | { readonly kind: 'rejected'; readonly error: unknown }
  /** The call itself threw (a watch method's argument check, or a REST method's bug). */
  | { readonly kind: 'threw'; readonly error: unknown }
  /** A REST method returned something that is not a promise, or a watch method no Observable. */
  | { readonly kind: 'not-async'; readonly value: unknown }
  /** A watch stream's first value. */
  | { readonly kind: 'emitted'; readonly value: unknown }
  /** A watch stream's error. */
  | { readonly kind: 'failed'; readonly error: unknown }
  /** A watch stream that neither emitted nor failed within the wait. */
  | { readonly kind: 'silent' }

const SILENT = Symbol('silent')

/**
 * Subscribes to `stream` until its first value or error, for at most `waitMs`, then
 * unsubscribes.
 */
export async function firstOutcome(stream: Observable<unknown>, waitMs: number): Promise<Outcome> {
  try {
    const value = await firstValueFrom(
      stream.pipe(take(1), timeout({ first: waitMs, with: () => of(SILENT) })),
    )
    return value === SILENT ? { kind: 'silent' } : { kind: 'emitted', value }
  } catch (error) {
    return { kind: 'failed', error }
  }
}

/**
 * Calls one method and waits for what it came to: a REST promise until it settles, a
 * watch stream until its first value or error (at most `waitMs`).
 */
export async function settle(venue: Venue, call: FuzzCall, waitMs = 300): Promise<Outcome> {
  let result: unknown
  try {
    result = isWatchMethod(call.method)
      ? invokeWatch(venue, call.method, call.args)
      : invokeRest(venue, call.method, call.args)
  } catch (error) {
    return { kind: 'threw', error }
  }
  if (isWatchMethod(call.method)) {
    if (!isObservable(result)) return { kind: 'not-async', value: result }
    return firstOutcome(result, waitMs)
  }
  if (!(result instanceof Promise)) return { kind: 'not-async', value: result }
  try {
    return { kind: 'resolved', value: await result }
  } catch (error) {
    return { kind: 'rejected', error }
  }
}

/** The error of an outcome, if it has one. */
export function errorOf(outcome: Outcome): unknown {
  return outcome.kind === 'rejected' || outcome.kind === 'threw' || outcome.kind === 'failed'
    ? outcome.error
    : undefined
}

/** Calls every one of `calls` in turn (see {@link settle}) and pairs each with its outcome. */
export async function callEveryMethod(
  venue: Venue,
  calls: readonly FuzzCall[],
  waitMs = 300,
): Promise<{ readonly call: FuzzCall; readonly outcome: Outcome }[]> {
  const results: { call: FuzzCall; outcome: Outcome }[] = []
  for (const call of calls) results.push({ call, outcome: await settle(venue, call, waitMs) })
  return results
}

/**
 * Every place a string can go, in every REST and watch method: as each argument value,
 * as each argument's name (an unknown key), as options objects, as the call options
 * (an unknown option name, a `signal`, an abort reason).
 * Used to put the API key (or text around it) everywhere a caller could paste it.
 */
export function textPlacements(text: string): FuzzCall[] {
  const calls: FuzzCall[] = []
  const rest = (method: RestMethodName, ...args: unknown[]) => calls.push({ method, args })
  const watch = (method: WatchMethodName, ...args: unknown[]) => calls.push({ method, args })
  const named = { [text]: 1 }

  const objectArgs: [RestMethodName, Record<string, unknown>, readonly string[]][] = [
    ['depth', { poolId: 1 }, ['poolId', 'limit', 'precision', 'source']],
    ['klines', { poolId: 1, interval: '1m' }, ['poolId', 'interval', 'start', 'end', 'source']],
    ['latestTrades', {}, ['poolId', 'limit', 'source']],
    ['historyOrders', {}, ['poolId', 'side', 'type', 'status', 'limit', 'offset']],
    ['openOrders', {}, ['poolId', 'side', 'type', 'status', 'limit', 'offset']],
    ['trades', {}, ['poolId', 'limit', 'after', 'before', 'afterSeq', 'sort']],
    ['transfers', {}, ['limit', 'start', 'end', 'afterId', 'sort']],
    ['pools', {}, ['baseCoin', 'quoteCoin', 'limit', 'offset']],
    ['order', { poolId: 1, orderId: 1, side: 0 }, ['poolId', 'orderId', 'side']],
  ]
  for (const [method, base, names] of objectArgs) {
    for (const name of names) rest(method, { ...base, [name]: text })
    rest(method, { ...base, ...named })
    rest(method, text)
  }
  rest('order', text)
  rest('orderByClientId', text)
  rest('pool', text)
  rest('token', text)
  for (const method of REST_METHODS) {
    rest(method, ...VALID_REST_ARGS[method], named)
    rest(method, ...VALID_REST_ARGS[method], { signal: text })
    rest(method, ...VALID_REST_ARGS[method], { signal: AbortSignal.abort(text) })
    rest(method, ...VALID_REST_ARGS[method], { signal: AbortSignal.abort(new Error(text)) })
    rest(method, ...VALID_REST_ARGS[method], text)
  }

  watch('watchPool', text)
  for (const method of ['watchDepth', 'watchOrderBook'] as const) {
    watch(method, text)
    watch(method, 1, text)
    for (const name of ['limit', 'precision', 'source']) watch(method, 1, { [name]: text })
    watch(method, 1, named)
  }
  watch('watchTrades', text)
  watch('watchTrades', 1, text)
  watch('watchTrades', 1, { source: text })
  watch('watchTrades', 1, named)
  for (const method of ['watchMyTrades', 'watchTransfers'] as const) {
    watch(method, text)
    watch(method, named)
    for (const name of ['cursor', 'checkpoint', 'onProgress', 'order']) {
      watch(method, { [name]: text })
    }
    watch(method, { checkpoint: { load: () => text, save: () => undefined } })
  }
  watch('watchMyTrades', { poolId: text })
  for (const method of WATCH_METHODS) {
    const padding = Array.from(
      { length: WATCH_ARITY[method] },
      (_, i) => VALID_WATCH_ARGS[method][i],
    )
    watch(method, ...padding, text)
  }
  return calls
}

/** A valid argument list (without call options) of every REST method. */
export const VALID_REST_ARGS: Readonly<Record<RestMethodName, readonly unknown[]>> = {
  depth: [{ poolId: 1 }],
  klines: [{ poolId: 1, interval: '1m' }],
  latestTrades: [undefined],
  accountInfo: [],
  balances: [],
  historyOrders: [undefined],
  openOrders: [undefined],
  order: ['1-7-0'],
  orderByClientId: ['cid-7'],
  trades: [undefined],
  transfers: [undefined],
  ping: [],
  systemInfo: [],
  pools: [undefined],
  pool: [1],
  tokens: [],
  token: ['USDT'],
}

/** A valid argument list of every watch method. */
export const VALID_WATCH_ARGS: Readonly<Record<WatchMethodName, readonly unknown[]>> = {
  watchPools: [],
  watchPool: [1],
  watchTokens: [],
  watchSystemInfo: [],
  watchAccount: [],
  watchBalances: [],
  watchOpenOrders: [],
  watchDepth: [1],
  watchOrderBook: [1],
  watchTrades: [1],
  watchMyTrades: [],
  watchTransfers: [],
  watchFills: [],
  watchOrder: ['0-1-0'],
  watchKlines: [1, '1m'],
}

/** How many arguments each watch method takes (`watchDepth(poolId, options)` takes 2). */
export const WATCH_ARITY: Readonly<Record<WatchMethodName, number>> = {
  watchPools: 0,
  watchPool: 1,
  watchTokens: 0,
  watchSystemInfo: 0,
  watchAccount: 0,
  watchBalances: 1,
  watchOpenOrders: 0,
  watchDepth: 2,
  watchOrderBook: 2,
  watchTrades: 2,
  watchMyTrades: 1,
  watchTransfers: 1,
  watchFills: 1,
  watchOrder: 2,
  watchKlines: 3,
}

/** Endpoints a watch method asks besides the one it polls (account info, order look-ups). */
export const WATCH_ALSO: Readonly<Partial<Record<WatchMethodName, readonly RestMethodName[]>>> = {
  // The cursor feeds read the venue's clock once (their watermark) before the first page.
  watchMyTrades: ['ping'],
  watchTransfers: ['ping'],
  watchFills: ['accountInfo', 'ping'],
  watchOrder: [
    'accountInfo',
    'order',
    'orderByClientId',
    'openOrders',
    'historyOrders',
    'ping',
    'trades',
  ],
  watchOpenOrders: ['order'],
  watchKlines: ['ping'],
}

/** The REST endpoint each watch method polls. */
export const WATCH_ENDPOINT: Readonly<Record<WatchMethodName, RestMethodName>> = {
  watchPools: 'pools',
  watchPool: 'pool',
  watchTokens: 'tokens',
  watchSystemInfo: 'systemInfo',
  watchAccount: 'accountInfo',
  watchBalances: 'balances',
  watchOpenOrders: 'openOrders',
  watchDepth: 'depth',
  watchOrderBook: 'depth',
  watchTrades: 'latestTrades',
  watchMyTrades: 'trades',
  watchTransfers: 'transfers',
  watchFills: 'trades',
  watchOrder: 'trades',
  watchKlines: 'klines',
}

/** `Name: message` of an error, or the type of a thrown non-error, for assertion messages. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return `a thrown ${typeof error}`
}

/** What a stream emitted while it was watched, and how it ended (if it did). */
export interface Collected<T> {
  readonly values: T[]
  readonly ended: 'error' | 'complete' | 'watching'
  readonly error?: unknown
}

/**
 * Subscribes to `stream` and collects its values until it ends, `enough()` holds (checked
 * every 2 ms) or `maxMs` passed; then unsubscribes.
 */
export function collect<T>(
  stream: Observable<T>,
  maxMs: number,
  enough: () => boolean = () => false,
): Promise<Collected<T>> {
  return new Promise((resolve) => {
    const values: T[] = []
    const started = Date.now()
    let done = false
    // Assigned once `subscribe` returns: a stream may end during the call itself.
    let subscription: { unsubscribe(): void } | undefined
    const finish = (result: Collected<T>) => {
      if (done) return
      done = true
      clearInterval(watcher)
      subscription?.unsubscribe()
      resolve(result)
    }
    const watcher = setInterval(() => {
      if (enough() || Date.now() - started >= maxMs) finish({ values, ended: 'watching' })
    }, 2)
    subscription = stream.subscribe({
      next: (value) => values.push(value),
      error: (error: unknown) => finish({ values, ended: 'error', error }),
      complete: () => finish({ values, ended: 'complete' }),
    })
    if (done) subscription.unsubscribe()
  })
}
