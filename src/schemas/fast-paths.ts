/**
 * Fast paths of the hottest schemas. Each takes the same input as its zod schema and
 * returns exactly what the schema's `parse` would return, or `undefined` when the input is
 * anything but the plain, common form: the caller then runs the schema, which accepts
 * the unusual valid forms and reports the invalid ones with their paths. A fast path never
 * accepts what its schema refuses (property-tested in test/fuzz-fast-paths.test.ts and
 * test/schemas-fast-paths-trades.test.ts).
 *
 * Each also counts, in a {@link JsonTally}, the fewest characters its input can have been
 * written with; the REST client compares that with the answer's length to know that
 * `JSON.parse` read every number exactly.
 */

import { isDecimal, isDigit, withinMaxId } from '../decimal.js'
import { isPlainObject } from '../plain-object.js'
import type { Balance, BalanceLock } from './balance.js'
import type { Depth, Level } from './depth.js'
import type { Envelope } from './envelope.js'
import { JsonTally } from './json-tally.js'
import { isNegativeDecimal, MILLISECONDS_THRESHOLD, timestampMillis } from './primitives.js'
import type { TradeDetail } from './trade-detail.js'

/** How far ahead in the known side a level's price is looked for (levels gone since). */
const LOOK_AHEAD = 3

/**
 * `levels` when it is an array of `[price, quantity]` pairs of decimal strings, the
 * quantity not negative (as `levelSchema` wants), as parsed.
 * Text equal to the text of `known` (a side of an answer already validated) is valid as it
 * is: when the venue is polled, most levels are those of the last answer, and a string
 * compare is several times cheaper than reading the digits. The sides are walked together
 * by price text, looking a few levels ahead in `known` for levels gone since; any text not
 * found there is read in full.
 */
function plainLevels(
  levels: unknown,
  known: readonly Level[] | undefined,
  tally: JsonTally,
): Level[] | undefined {
  if (!Array.isArray(levels)) return undefined
  let characters = 0
  let at = 0
  const end = known === undefined ? 0 : known.length
  for (let k = 0; k < levels.length; k += 1) {
    const level: unknown = levels[k]
    if (!Array.isArray(level) || level.length !== 2) return undefined
    const price: unknown = level[0]
    const quantity: unknown = level[1]
    if (typeof price !== 'string' || typeof quantity !== 'string') return undefined
    // `["price","quantity"]`
    characters += price.length + quantity.length + 7
    let knownLevel: Level | undefined
    for (let look = at; look < at + LOOK_AHEAD && look < end; look += 1) {
      const old = (known as readonly Level[])[look] as Level
      if (old[0] === price) {
        knownLevel = old
        at = look + 1
        break
      }
    }
    if (knownLevel === undefined) {
      if (!isDecimal(price) || !isDecimal(quantity) || isNegativeDecimal(quantity)) return undefined
    } else if (knownLevel[1] === quantity) {
      // The very level of the last answer: keep that one. The fresh pair dies young, the
      // book keeps one object per level across polls, and the diff finds it by identity.
      levels[k] = knownLevel
    } else if (!isDecimal(quantity) || isNegativeDecimal(quantity)) {
      return undefined
    }
  }
  tally.length += characters
  tally.arrayFrame(levels.length)
  // The parsed arrays are fresh from JSON.parse and held by nobody else.
  return levels as Level[]
}

/** The five keys of a depth answer, quoted. */
const DEPTH_KEYS = quotedLength(['asks', 'bids', 'pool_id', 'precision', 'timestamp'])

/** Characters of `keys` written as JSON strings. */
function quotedLength(keys: readonly string[]): number {
  return keys.reduce((sum, key) => sum + key.length + 2, 0)
}

/**
 * {@link depthSchema}'s output for a plain depth answer, else `undefined`. `known`, an
 * earlier output of the same request, makes the levels it already had cheaper to check.
 */
export function fastDepth(
  data: unknown,
  known?: Depth,
  tally: JsonTally = new JsonTally(),
): Depth | undefined {
  if (!isPlainObject(data)) return undefined
  const { pool_id: poolId, precision } = data
  if (typeof poolId !== 'number' || !Number.isSafeInteger(poolId) || poolId < 0) return undefined
  if (typeof precision !== 'string' || !isDecimal(precision)) return undefined
  const asks = plainLevels(data['asks'], known?.asks, tally)
  if (asks === undefined) return undefined
  const bids = plainLevels(data['bids'], known?.bids, tally)
  if (bids === undefined) return undefined
  // Whole milliseconds are the schema's output as they are; other forms go to the schema.
  const time = data['timestamp']
  let timestamp: number
  if (typeof time === 'number' && Number.isSafeInteger(time)) {
    timestamp = time + 0
  } else {
    const parsed = timestampMillis.safeParse(time)
    if (!parsed.success) return undefined
    timestamp = parsed.data
  }
  tally.length += DEPTH_KEYS
  tally.objectFrame(5)
  tally.number(poolId, 'pool_id')
  tally.string(precision)
  tally.value(time, 'timestamp')
  return { asks, bids, pool_id: poolId, precision, timestamp }
}

/** {@link envelopeSchema}'s output for a plain envelope, else `undefined`. */
export function fastEnvelope(json: unknown): Envelope | undefined {
  if (!isPlainObject(json)) return undefined
  const { code, message, meta } = json
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) return undefined
  if (typeof message !== 'string' || !Object.hasOwn(json, 'data')) return undefined
  if (meta !== undefined && (!isPlainObject(meta) || Object.hasOwn(meta, '__proto__'))) {
    return undefined
  }
  return { code, message, data: json['data'], meta: meta === undefined ? {} : { ...meta } }
}

/**
 * `unsignedIntegerString`'s output for a non-negative safe-integer number or a
 * canonical digit string (no leading zero) of at most 2^64 - 1, else `undefined`.
 */
function plainUnsignedId(value: unknown, key: string, tally: JsonTally): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return undefined
    const text = String(value)
    tally.integer(text, key)
    return text
  }
  if (typeof value !== 'string') return undefined
  const n = value.length
  if (n === 0 || (n > 1 && value[0] === '0')) return undefined
  for (let i = 0; i < n; i += 1) if (!isDigit(value.charCodeAt(i))) return undefined
  // Above 2^64 - 1 the schema refuses it: it is left to the schema to report.
  if (!withinMaxId(value)) return undefined
  tally.length += n + 2
  return value
}

/** `decimalString`'s output for plain decimal text, else `undefined`. */
function plainDecimal(value: unknown): string | undefined {
  return typeof value === 'string' && isDecimal(value) ? value : undefined
}

/**
 * `timestampSeconds`'s output for a finite number of seconds (or of milliseconds at
 * or above {@link MILLISECONDS_THRESHOLD}), else `undefined`: the schema's own arithmetic.
 */
function plainSeconds(value: unknown): number | undefined {
  if (typeof value !== 'number') return undefined
  const millis = Math.round(value >= MILLISECONDS_THRESHOLD ? value : value * 1000)
  // `+ 0` turns a negative zero into zero, as the schema does.
  return Number.isSafeInteger(millis) ? millis + 0 : undefined
}

/** The twenty keys of a trade record. */
const TRADE_KEYS = [
  'global_seq',
  'tx_id',
  'pool_id',
  'base_coin',
  'quote_coin',
  'base_quantity',
  'quote_quantity',
  'price',
  'timestamp',
  'taker',
  'taker_fee',
  'taker_is_bid',
  'taker_order_id',
  'taker_order_cid',
  'taker_permission',
  'maker',
  'maker_fee',
  'maker_order_id',
  'maker_order_cid',
  'maker_permission',
] as const

/**
 * A trade record's characters besides its values: the quoted keys, the braces, colons
 * and commas, and the quotes of its fourteen string and decimal values.
 */
const TRADE_FRAME = quotedLength(TRADE_KEYS) + 2 * TRADE_KEYS.length + 1 + 14 * 2

/** `tradeDetailSchema`'s output for a plain trade record, else `undefined`. */
function plainTrade(record: unknown, tally: JsonTally): TradeDetail | undefined {
  if (!isPlainObject(record)) return undefined
  const {
    tx_id: txId,
    pool_id: poolId,
    base_coin: baseCoin,
    quote_coin: quoteCoin,
    taker,
    taker_is_bid: takerIsBid,
    taker_order_cid: takerOrderCid,
    taker_permission: takerPermission,
    maker,
    maker_order_cid: makerOrderCid,
    maker_permission: makerPermission,
  } = record
  if (
    typeof txId !== 'string' ||
    typeof poolId !== 'number' ||
    !Number.isSafeInteger(poolId) ||
    poolId < 0 ||
    typeof baseCoin !== 'string' ||
    typeof quoteCoin !== 'string' ||
    typeof taker !== 'string' ||
    typeof takerIsBid !== 'boolean' ||
    typeof takerOrderCid !== 'string' ||
    typeof takerPermission !== 'string' ||
    typeof maker !== 'string' ||
    typeof makerOrderCid !== 'string' ||
    typeof makerPermission !== 'string'
  ) {
    return undefined
  }
  const globalSeq = plainUnsignedId(record['global_seq'], 'global_seq', tally)
  const takerOrderId = plainUnsignedId(record['taker_order_id'], 'taker_order_id', tally)
  const makerOrderId = plainUnsignedId(record['maker_order_id'], 'maker_order_id', tally)
  const baseQuantity = plainDecimal(record['base_quantity'])
  const quoteQuantity = plainDecimal(record['quote_quantity'])
  const price = plainDecimal(record['price'])
  const takerFee = plainDecimal(record['taker_fee'])
  const makerFee = plainDecimal(record['maker_fee'])
  const seconds = record['timestamp']
  const timestamp = plainSeconds(seconds)
  if (
    globalSeq === undefined ||
    takerOrderId === undefined ||
    makerOrderId === undefined ||
    baseQuantity === undefined ||
    quoteQuantity === undefined ||
    price === undefined ||
    takerFee === undefined ||
    makerFee === undefined ||
    timestamp === undefined
  ) {
    return undefined
  }
  // The frame (keys, punctuation, the quotes of the string values), the string and
  // decimal values, the boolean, the numbers (the ids are counted above).
  tally.length +=
    TRADE_FRAME +
    txId.length +
    baseCoin.length +
    quoteCoin.length +
    taker.length +
    takerOrderCid.length +
    takerPermission.length +
    maker.length +
    makerOrderCid.length +
    makerPermission.length +
    baseQuantity.length +
    quoteQuantity.length +
    price.length +
    takerFee.length +
    makerFee.length +
    (takerIsBid ? 4 : 5)
  tally.number(poolId, 'pool_id')
  tally.number(seconds as number, 'timestamp')
  // The schema's keys in the schema's order (unknown keys dropped, as `z.object` does).
  return {
    global_seq: globalSeq,
    tx_id: txId,
    pool_id: poolId + 0,
    base_coin: baseCoin,
    quote_coin: quoteCoin,
    base_quantity: baseQuantity,
    quote_quantity: quoteQuantity,
    price,
    timestamp,
    taker,
    taker_fee: takerFee,
    taker_is_bid: takerIsBid,
    taker_order_id: takerOrderId,
    taker_order_cid: takerOrderCid,
    taker_permission: takerPermission,
    maker,
    maker_fee: makerFee,
    maker_order_id: makerOrderId,
    maker_order_cid: makerOrderCid,
    maker_permission: makerPermission,
  }
}

/**
 * `z.array(tradeDetailSchema)`'s output for a page of plain trade records (decimals as
 * decimal text, ids as safe-integer numbers or canonical digits, the time as a number),
 * else `undefined`.
 */
export function fastTrades(
  data: unknown,
  tally: JsonTally = new JsonTally(),
): TradeDetail[] | undefined {
  return plainList(data, tally, plainTrade)
}

/** `items` read by `item` into a new array (its brackets and commas counted), else `undefined`. */
function plainList<T>(
  items: unknown,
  tally: JsonTally,
  item: (record: unknown, tally: JsonTally) => T | undefined,
): T[] | undefined {
  if (!Array.isArray(items)) return undefined
  const n = items.length
  const out = new Array<T>(n)
  for (let i = 0; i < n; i += 1) {
    const value = item(items[i], tally)
    if (value === undefined) return undefined
    out[i] = value
  }
  tally.arrayFrame(n)
  return out
}

/** The keys of a balance record and of one of its locks. */
const BALANCE_KEYS = ['coin', 'balance', 'locked', 'locks', 'stablecoin_price'] as const
const LOCK_KEYS = ['balance', 'pool_id', 'pool_symbol'] as const

/**
 * A balance record's characters besides its values: the quoted keys, the braces, colons
 * and commas, and the quotes of its four string and decimal values (the locks are
 * counted one by one).
 */
const BALANCE_FRAME = quotedLength(BALANCE_KEYS) + 2 * BALANCE_KEYS.length + 1 + 4 * 2
/** The same for a lock: its two string values quoted. */
const LOCK_FRAME = quotedLength(LOCK_KEYS) + 2 * LOCK_KEYS.length + 1 + 2 * 2

/** `balanceLockSchema`'s output for a plain lock (the pool as a number), else `undefined`. */
function plainLock(record: unknown, tally: JsonTally): BalanceLock | undefined {
  if (!isPlainObject(record)) return undefined
  const { pool_id: poolId, pool_symbol: poolSymbol } = record
  const balance = plainDecimal(record['balance'])
  if (
    balance === undefined ||
    typeof poolId !== 'number' ||
    !Number.isSafeInteger(poolId) ||
    poolId < 0 ||
    typeof poolSymbol !== 'string'
  ) {
    return undefined
  }
  tally.length += LOCK_FRAME + balance.length + poolSymbol.length
  tally.number(poolId, 'pool_id')
  return { balance, pool_id: poolId + 0, pool_symbol: poolSymbol }
}

/**
 * `balanceSchema`'s output for a plain balance record (decimals as decimal text, its
 * `locks` written out), else `undefined`.
 */
function plainBalance(record: unknown, tally: JsonTally): Balance | undefined {
  if (!isPlainObject(record)) return undefined
  const { coin, locks } = record
  const balance = plainDecimal(record['balance'])
  const locked = plainDecimal(record['locked'])
  const price = plainDecimal(record['stablecoin_price'])
  if (typeof coin !== 'string' || balance === undefined || locked === undefined) return undefined
  if (price === undefined) return undefined
  // Absent locks (the schema's default) go to the schema.
  const parsed = plainList(locks, tally, plainLock)
  if (parsed === undefined) return undefined
  tally.length += BALANCE_FRAME + coin.length + balance.length + locked.length + price.length
  // The schema's keys in the schema's order.
  return { coin, balance, locked, locks: parsed, stablecoin_price: price }
}

/**
 * `z.array(balanceSchema)`'s output for a list of plain balance records (decimals as
 * decimal text, pools as numbers, every record with its `locks`), else `undefined`: the
 * schema then reads it.
 */
export function fastBalances(
  data: unknown,
  tally: JsonTally = new JsonTally(),
): Balance[] | undefined {
  return plainList(data, tally, plainBalance)
}
