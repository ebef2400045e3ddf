/** A whole-number option's default and bounds. */
export interface IntegerLimits {
  readonly default: number
  readonly min: number
  readonly max: number
}

/**
 * The bounds of `startRelay`'s numeric options, which `venue-rx relay` takes as they are:
 *
 * - `leaseMs` 100 ms to one hour (default 5,000): a longer lease leaves a dead relay's
 *   streams silent that long, and past about 24.8 days its timers would overflow;
 * - `maxLen` 100 to 1,000,000 entries per Redis stream (default 10,000): Redis keeps every
 *   entry in memory;
 * - `streams`: at most 1,000 per relay.
 */
export const RELAY_LIMITS = {
  leaseMs: { default: 5_000, min: 100, max: 3_600_000 },
  maxLen: { default: 10_000, min: 100, max: 1_000_000 },
  streams: 1_000,
} as const satisfies {
  readonly leaseMs: IntegerLimits
  readonly maxLen: IntegerLimits
  readonly streams: number
}
