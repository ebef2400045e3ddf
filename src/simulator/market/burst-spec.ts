/**
 * The settings of the bursty regime (`bursts` of `MarketOptions` and `SimulatorOptions`)
 * and their check: apart from the regime (burst-regime.ts), which runs the market, so that
 * the market's option types name them without importing the market.
 */

/** A range of simulated ms, `[min, max]`; each length is drawn uniformly from it. */
export type MsRange = readonly [min: number, max: number]

/**
 * The bursty regime ({@link MarketOptions.bursts}): every field optional, `{}` is the
 * defaults.
 *
 * @example
 * ```ts
 * import { startSimulator } from 'venue-rx/simulator'
 *
 * // bursts of 1-4 s with a book change every 20-50 ms, quiet spells of 2-8 s,
 * // an own trade of the demo account every 5-7 s; 10 ms ticks
 * const sim = await startSimulator({ clock: 'manual', tickMs: 10, bursts: {} })
 * const shorter = { burstMs: [500, 1000], quietMs: [5000, 5000] } as const
 * ```
 */
export interface BurstSpec {
  /** Length of a burst, simulated ms; default `[1000, 4000]`. */
  readonly burstMs?: MsRange
  /** Length of a quiet spell, simulated ms; default `[2000, 8000]`. */
  readonly quietMs?: MsRange
  /** Time between two crowd actions in a pool during its burst, ms; default `[20, 50]`. */
  readonly changeGapMs?: MsRange
  /** Time between two market orders of the demo account, ms; default `[5000, 7000]`. */
  readonly ownTradeGapMs?: MsRange
}

const DEFAULTS: Required<BurstSpec> = {
  burstMs: [1000, 4000],
  quietMs: [2000, 8000],
  changeGapMs: [20, 50],
  ownTradeGapMs: [5000, 7000],
}

/** `spec` with its defaults; throws a `RangeError` naming the field for a bad one. */
export function checkBurstSpec(spec: BurstSpec): Required<BurstSpec> {
  if (typeof spec !== 'object' || spec === null) {
    throw new RangeError(`bursts must be an object (got ${JSON.stringify(spec)})`)
  }
  const known = Object.keys(DEFAULTS)
  for (const name of Object.keys(spec)) {
    if (!known.includes(name)) {
      throw new RangeError(`bursts.${name} is not a setting (known: ${known.join(', ')})`)
    }
  }
  const checked = { ...DEFAULTS, ...spec }
  for (const name of known as (keyof BurstSpec)[]) {
    const range = checked[name]
    const [min, max] = Array.isArray(range) ? range : []
    const valid =
      Array.isArray(range) &&
      range.length === 2 &&
      typeof min === 'number' &&
      typeof max === 'number' &&
      Number.isFinite(min) &&
      Number.isFinite(max) &&
      min > 0 &&
      max >= min
    if (!valid) {
      throw new RangeError(
        `bursts.${name} must be [min, max] ms with 0 < min <= max (got ${JSON.stringify(range)})`,
      )
    }
  }
  return checked
}
