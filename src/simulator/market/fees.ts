/**
 * Trading fees. Rates are fractions held as parts per million; a fee is charged in the
 * coin the payer receives and rounded UP to that coin's pool precision (in the venue's
 * favour): `fee = ceil(received × rate)`.
 *
 * @packageDocumentation
 */
import { divCeil } from './fixed-point.js'

/** Parts per million in one. */
const MILLION = 1_000_000n

/** Taker fee rate, 0.003, in parts per million. */
export const TAKER_FEE_PPM = 3000n

/** Maker fee rate, 0.001, in parts per million. */
export const MAKER_FEE_PPM = 1000n

/** The account that collects every fee. */
export const FEE_ACCOUNT = 'fees.venue'

/** The fee on `received` units at `ratePpm`, rounded up. */
export function feeOn(received: bigint, ratePpm: bigint): bigint {
  return divCeil(received * ratePpm, MILLION)
}

/** A rate in parts per million as the fraction the wire carries (3000n -> 0.003). */
export function rateNumber(ratePpm: bigint): number {
  return Number(ratePpm) / 1_000_000
}
