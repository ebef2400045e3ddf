/**
 * Scalar building blocks shared by every resource schema.
 *
 * The live service is loose about scalar encodings: decimals arrive as strings or JSON
 * numbers, times arrive as Unix seconds, Unix milliseconds, numeric strings or ISO-8601
 * text, and integers sometimes arrive quoted. Each schema here accepts every observed
 * form and normalises it to exactly one output form, so the rest of the library sees a
 * single representation.
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { MAX_ID, numberToDecimalString, withinMaxId } from '../decimal.js'
import { isExactNumberText } from './exact-number.js'

export { numberToDecimalString }

/**
 * The code values of a table of named codes, e.g. `0 | 1` for `{ Buy: 0, Sell: 1 }`.
 *
 * @example
 * ```ts
 * const OrderSide = { Buy: 0, Sell: 1 } as const
 * type OrderSide = CodeOf<typeof OrderSide> // 0 | 1
 * ```
 */
export type CodeOf<Table> = Table[keyof Table]

/** Exact decimal text as accepted on the wire: optional '-', digits, optional fraction. */
const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/

/** Integer text: optional '-', then digits. */
const INTEGER_PATTERN = /^-?\d+$/

/** Unsigned integer text: digits only. */
const DIGITS_PATTERN = /^\d+$/

/** Number text for floating-point fields: decimal with an optional exponent. */
const FLOAT_PATTERN = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/**
 * ISO-8601 / RFC 3339 date or date-time: `YYYY-MM-DD`, optionally followed by `T` (or a
 * space), `hh:mm`, optional `:ss`, optional fraction, optional zone (`Z`, `±hh:mm`,
 * `±hhmm` or `±hh`).
 */
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([-+])(\d{2})(?::?(\d{2}))?)?)?$/

/**
 * A numeric time at or above this value is taken as milliseconds even where seconds are
 * expected: 1e12 seconds after the epoch is the year 33658, whereas 1e12 milliseconds is
 * September 2001, so the two ranges cannot be confused for any realistic time.
 */
export const MILLISECONDS_THRESHOLD = 1e12

/**
 * Parses an ISO-8601 date or date-time (see the accepted forms on {@link timestampSeconds})
 * into epoch milliseconds. A date-time without a zone designator is read as UTC, and a plain
 * date is midnight UTC. Fractions finer than a millisecond are rounded to the nearest one.
 *
 * @param text - The candidate date text.
 * @returns Epoch milliseconds, or `undefined` when the text is not a valid calendar time.
 */
export function parseIsoTimestamp(text: string): number | undefined {
  const match = ISO_PATTERN.exec(text)
  if (match === null) return undefined
  const [
    ,
    yearText = '',
    monthText = '',
    dayText = '',
    hourText = '0',
    minuteText = '0',
    secondText = '0',
    fractionText = '',
    ,
    offsetSign,
    offsetHourText = '0',
    offsetMinuteText = '0',
  ] = match
  const year = Number(yearText)
  const month = Number(monthText)
  const day = Number(dayText)
  const hour = Number(hourText)
  const minute = Number(minuteText)
  const second = Number(secondText)
  const offsetHour = Number(offsetHourText)
  const offsetMinute = Number(offsetMinuteText)
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined
  if (offsetHour > 23 || offsetMinute > 59) return undefined

  // setUTCFullYear avoids Date.UTC's mapping of years 0-99 onto 1900-1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  date.setUTCHours(hour, minute, second, 0)

  // Round the fraction to whole milliseconds from its digits, without float drift.
  const millis =
    fractionText === ''
      ? 0
      : Math.round(Number(`${fractionText.slice(0, 3).padEnd(3, '0')}.${fractionText.slice(3)}0`))
  const offsetMinutes =
    offsetSign === undefined ? 0 : (offsetSign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute)
  const result = date.getTime() + millis - offsetMinutes * 60_000
  return Number.isSafeInteger(result) ? result : undefined
}

/**
 * Adds a custom issue to a zod refinement context and returns `z.NEVER`. The message does
 * not quote the input (it may hold a secret the venue echoed); the issue keeps it in
 * `input`, and the client shows it redacted.
 */
function fail(ctx: z.RefinementCtx, input: unknown, message: string): never {
  ctx.addIssue({ code: 'custom', input, message })
  return z.NEVER
}

/** A string or a number, with one clear message when the input is neither. */
function stringOrNumber(expected: string) {
  return z.union([z.string(), z.number()], { error: `Expected ${expected}` })
}

/**
 * An exact decimal amount or price, output as a string.
 *
 * Accepts a string matching `^-?\d+(\.\d+)?$`, which is kept byte for byte (`"1.10"` stays
 * `"1.10"`), or a finite JSON number, which is written as a plain decimal with
 * `numberToDecimalString` (no exponent). Empty strings, other text, NaN and infinities
 * are rejected.
 *
 * @example
 * ```ts
 * import { decimalString } from 'venue-rx/schemas'
 *
 * decimalString.parse('1.10')  // '1.10' (kept as sent)
 * decimalString.parse(1e-7)    // '0.0000001'
 * decimalString.safeParse('1e-7').success // false
 * ```
 */
export const decimalString = stringOrNumber('a decimal string or a finite number').transform(
  (value, ctx): string => {
    if (typeof value === 'number') return numberToDecimalString(value)
    if (DECIMAL_PATTERN.test(value)) return value
    return fail(ctx, value, 'Expected a decimal number such as "12.5"')
  },
)

/**
 * True when valid decimal text is below zero: a sign, and a digit other than `0` (`"-0"`
 * and `"-0.000"` are zero). Shared by the schema of book quantities and its fast path.
 */
export function isNegativeDecimal(text: string): boolean {
  if (text.charCodeAt(0) !== 45 /* - */) return false
  for (let i = 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (c >= 49 && c <= 57) return true
  }
  return false
}

/**
 * Builds a time schema that outputs integer epoch milliseconds.
 *
 * @param numericUnitMs - Milliseconds per unit of a numeric input (1000 for seconds, 1 for ms).
 */
function timestampSchema(numericUnitMs: number) {
  const unitName = numericUnitMs === 1 ? 'milliseconds' : 'seconds'
  return stringOrNumber(`a Unix time in ${unitName} or an ISO-8601 date-time`).transform(
    (value, ctx): number => {
      let numeric: number
      if (typeof value === 'number') {
        numeric = value
      } else if (DECIMAL_PATTERN.test(value)) {
        numeric = Number(value)
      } else {
        const parsed = parseIsoTimestamp(value)
        if (parsed !== undefined) return parsed
        return fail(ctx, value, `Expected a Unix time in ${unitName} or an ISO-8601 date-time`)
      }
      // At or above the threshold a number is already milliseconds, whatever the unit.
      const millis = Math.round(
        numeric >= MILLISECONDS_THRESHOLD ? numeric : numeric * numericUnitMs,
      )
      if (!Number.isSafeInteger(millis)) {
        return fail(ctx, value, 'Time is out of the representable range')
      }
      // `+ 0` turns a negative zero into zero.
      return millis + 0
    },
  )
}

/**
 * A point in time sent as Unix SECONDS, output as integer epoch milliseconds.
 *
 * Used for `order_time`, `traded_at`, trade `timestamp`, `updated_at`, kline `timestamp`,
 * `asking_time`, `trading_time` and ping `timestamp`. Accepted inputs:
 * - a finite number or a numeric string (`"1700000000"`, `"1700000000.5"`) of seconds,
 *   converted with `Math.round(seconds * 1000)`; `0` / `"0"` (an unset time) gives `0`;
 * - a number (or numeric string) at or above `MILLISECONDS_THRESHOLD` (1e12), which
 *   is taken as already being milliseconds: as seconds it would be the year 33658;
 * - an ISO-8601 date-time such as `"2024-01-02T03:04:05.678Z"` or
 *   `"2024-01-02T05:04:05+02:00"`; without a zone designator it is read as UTC, and a
 *   plain date such as `"2024-01-02"` is midnight UTC.
 *
 * Empty strings, other text and impossible dates are rejected.
 *
 * @example
 * ```ts
 * import { timestampSeconds } from 'venue-rx/schemas'
 *
 * timestampSeconds.parse(1700000100)             // 1700000100000
 * timestampSeconds.parse('1700000100')           // 1700000100000
 * timestampSeconds.parse(1700000100000)          // 1700000100000 (at or above 1e12: already ms)
 * timestampSeconds.parse('2023-11-14T22:15:00Z') // 1700000100000
 * ```
 */
export const timestampSeconds = timestampSchema(1000)

/**
 * A point in time sent as Unix MILLISECONDS (used by `depth.timestamp` and transfer
 * `created_at`), output as integer epoch milliseconds.
 *
 * Numbers and numeric strings are milliseconds (rounded to an integer); ISO-8601 text is
 * handled exactly as by {@link timestampSeconds}.
 *
 * @example
 * ```ts
 * import { timestampMillis } from 'venue-rx/schemas'
 *
 * timestampMillis.parse(1700000099500)              // 1700000099500
 * timestampMillis.parse('2023-11-14T22:14:59.500Z') // 1700000099500
 * ```
 */
export const timestampMillis = timestampSchema(1)

/**
 * Builds an integer schema over numbers and digit strings.
 *
 * @param nonNegative - Whether negative values are rejected.
 */
function integerSchema(nonNegative: boolean) {
  const what = nonNegative ? 'a non-negative integer' : 'an integer'
  return stringOrNumber(what).transform((value, ctx): number => {
    let n: number
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) return fail(ctx, value, `Expected ${what}`)
      n = value
    } else {
      if (!INTEGER_PATTERN.test(value)) {
        return fail(ctx, value, `Expected ${what}`)
      }
      n = Number(value)
    }
    if (!Number.isSafeInteger(n)) {
      return fail(ctx, value, 'Integer is outside the safe integer range; precision would be lost')
    }
    if (nonNegative && n < 0) return fail(ctx, value, `Expected ${what}`)
    return n + 0
  })
}

/**
 * An integer sent as a JSON number or as a digit string (optionally led by '-'), output as
 * a number. Values outside `Number.isSafeInteger` are rejected because precision would be
 * lost.
 *
 * @example
 * ```ts
 * import { safeInteger } from 'venue-rx/schemas'
 *
 * safeInteger.parse('-3') // -3
 * safeInteger.safeParse('9007199254740993').success // false: precision would be lost
 * ```
 */
export const safeInteger = integerSchema(false)

/**
 * Like {@link safeInteger}, and also rejects values below zero.
 *
 * @example
 * ```ts
 * import { nonNegativeSafeInteger } from 'venue-rx/schemas'
 *
 * nonNegativeSafeInteger.parse('42') // 42
 * nonNegativeSafeInteger.safeParse(-1).success // false
 * ```
 */
export const nonNegativeSafeInteger = integerSchema(true)

/**
 * An id or sequence number of the venue (unsigned 64-bit there: `global_seq`, order ids,
 * transfer `sid`), sent as a digit string or as a non-negative safe-integer number, output
 * as canonical digit text: no sign and no leading zeros except for `"0"` itself. A value
 * above 2^64 - 1 is refused: the venue cannot have sent it as an id, and it could not be
 * sent back as a cursor or an order id.
 *
 * @example
 * ```ts
 * import { unsignedIntegerString } from 'venue-rx/schemas'
 *
 * unsignedIntegerString.parse('18446744073709551615') // '18446744073709551615' (exact)
 * unsignedIntegerString.parse(670)    // '670'
 * unsignedIntegerString.parse('0042') // '42'
 * unsignedIntegerString.safeParse('18446744073709551616').success // false: above 2^64 - 1
 * ```
 */
export const unsignedIntegerString = stringOrNumber(
  'a digit string or a non-negative integer',
).transform((value, ctx): string => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return fail(ctx, value, 'Expected a non-negative safe integer; send large ids as strings')
    }
    return String(value)
  }
  if (!DIGITS_PATTERN.test(value)) {
    return fail(ctx, value, 'Expected a string of digits')
  }
  const digits = value.replace(/^0+(?=\d)/, '')
  if (!withinMaxId(digits)) {
    return fail(ctx, value, `Expected an unsigned 64-bit integer (at most ${MAX_ID})`)
  }
  return digits
})

/**
 * A floating-point quantity such as a fee rate or a change ratio, sent as a JSON number or
 * as numeric text (exponent allowed), output as a finite number.
 *
 * Text must say exactly the number it becomes: its value must be the double's shortest
 * round-trip decimal (`"0.003"`, `"1e-4"` and `"0.0030"` are; `"9007199254740993"`, whose
 * double is 9007199254740992, and `"0.10000000000000000001"`, whose double is 0.1, are
 * not). The exact JSON parse hands on as text every JSON number a double cannot hold, so
 * such a number from the venue is refused here instead of being rounded.
 *
 * @example
 * ```ts
 * import { finiteNumber } from 'venue-rx/schemas'
 *
 * finiteNumber.parse('0.003') // 0.003
 * finiteNumber.parse('1e-4')  // 0.0001
 * finiteNumber.safeParse('NaN').success // false
 * finiteNumber.safeParse('9007199254740993').success // false: it would become ...992
 * ```
 */
export const finiteNumber = stringOrNumber('a finite number').transform((value, ctx): number => {
  if (typeof value === 'number') return value
  const n = FLOAT_PATTERN.test(value) ? Number(value) : Number.NaN
  if (!Number.isFinite(n)) return fail(ctx, value, 'Expected a finite number')
  if (!isExactNumberText(value)) {
    return fail(ctx, value, 'Expected a number a double holds as written (it would be rounded)')
  }
  return n
})
