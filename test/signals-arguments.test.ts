/**
 * Every signals operator refuses, at the call, arguments it does not take, unknown option
 * names and `null` where an option is expected, with the `VenueInputError` the operators
 * (and the `watch...` methods) throw for bad arguments: the message names the operator,
 * `error.argument` the argument.
 */
import { map } from 'rxjs'
import { SMA } from 'trading-signals'
import { describe, expect, it } from 'vitest'
import { VenueInputError } from '../src/errors/venue-input-error.js'
import * as signals from '../src/signals/index.js'

// Calls outside the operators' types, as JavaScript or a cast can make them.
const loose = signals as unknown as Record<string, (...args: unknown[]) => unknown>
const identity = map((v: string) => v)
const factory = () => new SMA(2)

/** [operator, arguments, the argument the error names, a piece of its message]. */
const rows: readonly [string, readonly unknown[], string, string][] = [
  // Arguments the operator does not take.
  ['mid', [5], 'arguments', 'mid: takes no arguments; argument 1 is extra (got 5)'],
  ['mid', [undefined, {}], 'arguments', 'mid: takes no arguments; argument 2 is extra'],
  ['spread', [{}, 'bps'], 'arguments', 'spread: takes (options) only; argument 2 is extra'],
  ['microprice', [{}, 2], 'arguments', 'microprice: takes (options) only; argument 2 is extra'],
  ['imbalance', [5, {}, 1], 'arguments', 'imbalance: takes (levels, options) only; argument 3'],
  ['depthWithin', [50, {}], 'arguments', 'depthWithin: takes (bps) only; argument 2 is extra'],
  ['vwap', [1_000, {}, 'x'], 'arguments', 'vwap: takes (windowMs, options) only; argument 3'],
  ['tradeFlowImbalance', [1_000, undefined, 7], 'arguments', 'tradeFlowImbalance: takes'],
  ['ohlcv', [60_000, { places: 2 }], 'arguments', 'ohlcv: takes (intervalMs) only; argument 2'],
  ['ohlcv', [60_000, {}, 'extra'], 'arguments', 'ohlcv: takes (intervalMs) only; argument 2'],
  ['ema', [20, {}, 1], 'arguments', 'ema: takes (period, options) only; argument 3 is extra'],
  ['crossover', [identity, identity, identity], 'arguments', 'crossover: takes (fast, slow)'],
  ['threshold', [{ above: 1 }, { below: 0 }], 'arguments', 'threshold: takes (options) only'],
  ['indicator', [factory, {}, 'candle'], 'arguments', 'indicator: takes (factory, options)'],
  // Unknown option names.
  ['spread', [{ units: 'bps' }], 'units', 'spread: unknown argument "units"'],
  ['microprice', [{ place: 2 }], 'place', 'microprice: unknown argument "place"'],
  ['imbalance', [5, { depth: 2 }], 'depth', 'imbalance: unknown argument "depth"'],
  ['vwap', [1_000, { decimals: 2 }], 'decimals', 'vwap: unknown argument "decimals"'],
  ['tradeFlowImbalance', [1_000, { window: 5 }], 'window', 'tradeFlowImbalance: unknown'],
  ['ema', [20, { alpha: 0.1 }], 'alpha', 'ema: unknown argument "alpha"'],
  ['threshold', [{ above: 1, hysterisis: 1 }], 'hysterisis', 'threshold: unknown argument'],
  ['indicator', [factory, { mode: 'close' }], 'mode', 'indicator: unknown argument "mode"'],
  // `null` where an options object is expected.
  ['spread', [null], 'options', 'spread: options must be an object'],
  ['microprice', [null], 'options', 'microprice: options must be an object'],
  ['imbalance', [5, null], 'options', 'imbalance: options must be an object'],
  ['vwap', [1_000, null], 'options', 'vwap: options must be an object'],
  ['tradeFlowImbalance', [1_000, null], 'options', 'tradeFlowImbalance: options must be'],
  ['ema', [20, null], 'options', 'ema: options must be an object'],
  ['threshold', [null], 'options', 'threshold: options must be an object'],
  ['indicator', [factory, null], 'options', 'indicator: options must be an object'],
  // `null` where an option or a positional argument is expected.
  ['spread', [{ unit: null }], 'unit', "spread: unit must be 'absolute' or 'bps' (got null)"],
  ['spread', [{ places: null }], 'places', 'spread: places must be an integer'],
  ['microprice', [{ places: null }], 'places', 'microprice: places must be an integer'],
  ['imbalance', [null], 'levels', 'imbalance: levels must be an integer >= 1 (got null)'],
  ['imbalance', [5, { places: null }], 'places', 'imbalance: places must be an integer'],
  ['depthWithin', [null], 'bps', 'depthWithin: bps must be a non-negative decimal'],
  ['vwap', [null], 'windowMs', 'vwap: windowMs must be an integer >= 1 (got null)'],
  ['vwap', [1_000, { places: null }], 'places', 'vwap: places must be an integer'],
  ['tradeFlowImbalance', [null], 'windowMs', 'tradeFlowImbalance: windowMs must be'],
  ['ohlcv', [null], 'intervalMs', 'ohlcv: intervalMs must be an integer >= 1 (got null)'],
  ['ema', [null], 'period', 'ema: period must be an integer >= 1 (got null)'],
  ['ema', [20, { places: null }], 'places', 'ema: places must be an integer'],
  ['crossover', [null, null], '(fast, slow)', 'crossover: (fast, slow) must be two operators'],
  ['threshold', [{ above: null }], 'above', 'threshold: above must be a decimal'],
  ['threshold', [{ above: 1, hysteresis: null }], 'hysteresis', 'threshold: hysteresis must'],
  ['indicator', [null], 'factory', 'indicator: factory must be a function (got null)'],
  ['indicator', [factory, { input: null }], 'input', "indicator: input must be 'close' or"],
]

describe('signals operators refuse what they do not take, at the call', () => {
  it('covers every operator of venue-rx/signals with an extra argument and a null', () => {
    const extra = new Set(rows.filter((r) => r[2] === 'arguments').map((r) => r[0]))
    const nulls = new Set(
      rows.filter((r) => r[1].includes(null) || /null/.test(r[3])).map((r) => r[0]),
    )
    for (const name of Object.keys(signals)) {
      expect(extra.has(name), `${name}: extra argument`).toBe(true)
      if (name !== 'mid') expect(nulls.has(name), `${name}: null`).toBe(true)
    }
  })

  for (const [name, args, argument, message] of rows) {
    it(`${name}(${args.map((a) => (typeof a === 'function' ? 'f' : (JSON.stringify(a) ?? 'undefined'))).join(', ')}) throws VenueInputError naming ${argument}`, () => {
      let error: unknown
      try {
        loose[name]?.(...args)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(VenueInputError)
      expect((error as VenueInputError).argument).toBe(argument)
      expect((error as Error).message).toContain(message)
    })
  }

  it('takes a trailing undefined as no argument (as the watch... methods do)', () => {
    expect(() => loose['mid']?.(undefined)).not.toThrow()
    expect(() => loose['vwap']?.(1_000, undefined, undefined)).not.toThrow()
    expect(() => loose['crossover']?.(undefined)).not.toThrow()
  })
})
