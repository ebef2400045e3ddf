import { beforeEach, describe, expect, it } from 'vitest'
import { ammLevels } from '../src/simulator/market/amm-levels.js'
import { AmmPool } from '../src/simulator/market/amm-pool.js'
import { precisionExponent } from '../src/simulator/market/depth-levels.js'
import { FEE_ACCOUNT } from '../src/simulator/market/fees.js'
import { formatFixed, isqrt, parseFixed } from '../src/simulator/market/fixed-point.js'
import { candleBounds, type KlineInterval } from '../src/simulator/market/kline-intervals.js'
import { Ledger } from '../src/simulator/market/ledger.js'
import { type Fill, MatchingEngine } from '../src/simulator/market/matching-engine.js'
import type { Order } from '../src/simulator/market/order.js'
import { DEFAULT_POOLS, type PoolSpec, resolvePools } from '../src/simulator/market/pool-spec.js'
import { Random } from '../src/simulator/market/random.js'
import { TransferDesk } from '../src/simulator/market/transfer-desk.js'

const [CHN_USDT] = resolvePools(DEFAULT_POOLS) as [PoolSpec]
const CHN = CHN_USDT.base.id
const USDT = CHN_USDT.quote.id
/** CHN/USDT: price 4 decimals, CHN 4 decimals, USDT 6 decimals. */
const price = (text: string): bigint => parseFixed(text, 4)
const chn = (text: string): bigint => parseFixed(text, 4)
const usdt = (text: string): bigint => parseFixed(text, 6)

describe('matching engine (CHN/USDT)', () => {
  let ledger: Ledger
  let engine: MatchingEngine
  let fills: Fill[]
  let seq: number

  beforeEach(() => {
    ledger = new Ledger([
      { ref: CHN_USDT.base, decimals: 4 },
      { ref: CHN_USDT.quote, decimals: 6 },
    ])
    fills = []
    seq = 0
    engine = new MatchingEngine(CHN_USDT, ledger, {
      nowSec: () => 1_700_000_000,
      nextOrderSeq: () => ++seq,
      keepsTrades: () => true,
      onCreate: () => {},
      onFill: (fill) => fills.push(fill),
      onFinal: () => {},
    })
    for (const account of ['a', 'b', 'c', 'd']) {
      ledger.credit(account, CHN, chn('1000'))
      ledger.credit(account, USDT, usdt('1000'))
    }
  })

  const limit = (account: string, side: 0 | 1, at: string, amount: string): Order =>
    engine.submit({ account, side, type: 1, price: price(at), amount: chn(amount) })

  it('fills by price first, then by time, at the maker prices', () => {
    const a = limit('a', 1, '1.0460', '10')
    const b = limit('b', 1, '1.0450', '10')
    const c = limit('c', 1, '1.0450', '10')
    const taker = limit('d', 0, '1.0460', '25')
    expect(
      fills.map((f) => [f.maker.account, formatFixed(f.price, 4), formatFixed(f.quantity, 4)]),
    ).toEqual([
      ['b', '1.0450', '10.0000'],
      ['c', '1.0450', '10.0000'],
      ['a', '1.0460', '5.0000'],
    ])
    expect([taker.status, taker.history, b.status, c.status, a.status, a.history]).toEqual([
      2,
      true,
      2,
      2,
      1,
      false,
    ])
    expect(engine.book.asks.wire(4, 4)).toEqual([['1.0460', '5.0000']])
    expect(engine.book.crossed()).toBe(false)
  })

  it('charges the taker 0.003 and the maker 0.001 of what each receives, rounded up, into the fee account', () => {
    limit('a', 1, '1.0450', '10')
    limit('d', 0, '1.0450', '0.33')
    const [fill] = fills
    // Taker receives 0.33 CHN: fee ceil(0.00099) = 0.0010 CHN; maker receives 0.344850 USDT: fee ceil(0.00034485) = 0.000345.
    expect(formatFixed(fill?.takerFee ?? -1n, 4)).toBe('0.0010')
    expect(formatFixed(fill?.makerFee ?? -1n, 6)).toBe('0.000345')
    expect(ledger.free(FEE_ACCOUNT, CHN)).toBe(chn('0.0010'))
    expect(ledger.free(FEE_ACCOUNT, USDT)).toBe(usdt('0.000345'))
    expect(ledger.free('d', CHN)).toBe(chn('1000.3290'))
    expect(ledger.free('d', USDT)).toBe(usdt('999.655150'))
    expect(ledger.free('a', USDT)).toBe(usdt('1000.344505'))
  })

  it('locks price x amount for a buy, releases price improvement at once and the rest on cancel', () => {
    limit('a', 1, '1.0450', '5')
    const buy = limit('d', 0, '1.0460', '10')
    // 5 filled at 1.0450 (5.225 USDT paid); 5 rest at 1.0460 (5.23 USDT locked).
    expect([buy.status, buy.history]).toEqual([1, false])
    expect(ledger.holding('d', USDT).locked).toBe(usdt('5.23'))
    expect(ledger.holding('d', USDT).locks.get(0)).toBe(usdt('5.23'))
    expect(ledger.free('d', USDT)).toBe(usdt('1000') - usdt('5.225') - usdt('5.23'))
    expect(engine.cancel(buy)).toBe(true)
    expect([buy.status, buy.history]).toEqual([1, true])
    expect(ledger.holding('d', USDT).locked).toBe(0n)
    expect(ledger.free('d', USDT)).toBe(usdt('994.775'))
    expect(engine.cancel(buy)).toBe(false)
  })

  it('cancels an unfilled order with status 3 and rejects what the balance cannot cover with status 4', () => {
    const resting = limit('a', 0, '1.0000', '1')
    expect(engine.cancel(resting)).toBe(true)
    expect(resting.status).toBe(3)
    const tooBig = limit('a', 0, '1.0000', '5000')
    expect([tooBig.status, tooBig.history]).toEqual([4, true])
    expect(ledger.holding('a', USDT).locked).toBe(0n)
    const offLot = engine.submit({
      account: 'a',
      side: 1,
      type: 1,
      price: price('1.1'),
      amount: 1n,
    })
    expect(offLot.status).toBe(4)
  })

  it('executes a market buy as far as the free balance pays, then drops the rest (status 1, history)', () => {
    limit('a', 1, '1.0450', '10')
    ledger.credit('poor', USDT, usdt('5.2'))
    const order = engine.submit({ account: 'poor', side: 0, type: 0, amount: chn('10') })
    // 5.2 / (1.0450 x 0.01) = 497 lots of 0.01 CHN.
    expect(formatFixed(order.filled, 4)).toBe('4.9700')
    expect([order.status, order.history, order.type, order.price]).toEqual([1, true, 0, 0n])
    expect(ledger.free('poor', USDT)).toBe(usdt('5.2') - usdt('5.193650'))
    const broke = engine.submit({ account: 'nobody', side: 0, type: 0, amount: chn('1') })
    expect(broke.status).toBe(4)
    engine.submit({ account: 'b', side: 0, type: 0, amount: chn('100') })
    const empty = engine.submit({ account: 'b', side: 0, type: 0, amount: chn('1') })
    expect(empty.status).toBe(3)
  })
})

describe('AMM pool', () => {
  const fresh = (): AmmPool => new AmmPool(CHN_USDT, chn('100000'), usdt('104500'))

  it('never lets x*y decrease over random swaps', () => {
    const amm = fresh()
    const random = new Random(5)
    let k = amm.base * amm.quote
    for (let i = 0; i < 2000; i++) {
      const quantity = random.bigint(1n, chn('500'))
      if (random.chance(0.5)) {
        const cost = amm.costToBuy(quantity)
        if (cost !== undefined) amm.apply(-quantity, cost)
      } else {
        amm.apply(quantity, -amm.proceedsOfSell(quantity))
      }
      const next = amm.base * amm.quote
      expect(next >= k).toBe(true)
      k = next
    }
  })

  it('maps asks to the base that moves the price up to each level, bids symmetric', () => {
    const amm = fresh()
    const { bids, asks } = ammLevels(amm, undefined, undefined)
    expect(asks).toHaveLength(20)
    expect(bids).toHaveLength(20)
    expect(asks[0]?.[0]).toBe(price('1.0455'))
    expect(bids[0]?.[0]).toBe(price('1.0445'))
    let cumulative = 0n
    for (const [level, quantity] of asks) {
      cumulative += quantity
      const after = new AmmPool(CHN_USDT, amm.base, amm.quote)
      after.apply(-cumulative, after.costToBuy(cumulative) ?? 0n)
      // Taking the level's cumulative base leaves the price at or below the level ...
      const at = after.price()
      expect(at.num <= level * at.den).toBe(true)
      // ... and two more base units push it to the level or beyond.
      const beyond = new AmmPool(CHN_USDT, amm.base, amm.quote)
      beyond.apply(-(cumulative + 2n), beyond.costToBuy(cumulative + 2n) ?? 0n)
      const over = beyond.price()
      expect(over.num >= level * over.den).toBe(true)
    }
    for (let i = 1; i < bids.length; i++)
      expect((bids[i - 1]?.[0] ?? 0n) > (bids[i]?.[0] ?? 0n)).toBe(true)
  })

  it('keeps AMM asks above the engine best bid and AMM bids below the engine best ask', () => {
    const amm = fresh()
    const { bids, asks } = ammLevels(amm, price('1.0470'), price('1.0420'))
    expect(asks[0]?.[0]).toBe(price('1.0475'))
    expect(bids[0]?.[0]).toBe(price('1.0415'))
  })
})

describe('depth precision, candle bounds and fixed point', () => {
  it('accepts only powers of ten from 0.000000001 to 10 as depth precision', () => {
    expect(
      ['0.000000001', '0.00000001', '0.0001', '0.010', '1', '1.0', '10'].map(precisionExponent),
    ).toEqual([-9, -8, -4, -2, 0, 0, 1])
    for (const text of ['0.0000000001', '100', '0.5', '2', '0', '-1', '1e-2', '']) {
      expect(precisionExponent(text), text).toBeUndefined()
    }
  })

  it('bounds candles in UTC: fixed lengths from the epoch, weeks from Monday, calendar months', () => {
    const t = Date.UTC(2024, 1, 29, 13, 47, 12) / 1000 // Thursday 29 Feb 2024
    const iso = (bounds: [number, number]): string[] =>
      bounds.map((s) => new Date(s * 1000).toISOString())
    const newYearsEve = Date.UTC(2023, 11, 31, 23, 59, 59) / 1000
    const cases: [interval: KlineInterval, at: number, bounds: string[]][] = [
      ['1m', t, ['2024-02-29T13:47:00.000Z', '2024-02-29T13:48:00.000Z']],
      ['4h', t, ['2024-02-29T12:00:00.000Z', '2024-02-29T16:00:00.000Z']],
      ['1d', t, ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z']],
      ['1w', t, ['2024-02-26T00:00:00.000Z', '2024-03-04T00:00:00.000Z']],
      ['1M', t, ['2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']],
      ['1M', newYearsEve, ['2023-12-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']],
    ]
    for (const [interval, at, bounds] of cases) {
      expect(iso(candleBounds(interval, at)), `${interval} at ${at}`).toEqual(bounds)
    }
  })

  it('formats with exactly the precision decimals and takes exact integer square roots', () => {
    expect(formatFixed(10450n, 4)).toBe('1.0450')
    expect(formatFixed(7n, 0)).toBe('7')
    expect(formatFixed(-5n, 3)).toBe('-0.005')
    expect(parseFixed('43000.00', 2)).toBe(4_300_000n)
    expect(() => parseFixed('1.23', 1)).toThrow(RangeError)
    for (const n of [0n, 1n, 15n, 16n, 10n ** 40n - 1n, (10n ** 20n + 7n) ** 2n]) {
      const root = isqrt(n)
      expect(root * root <= n && (root + 1n) * (root + 1n) > n).toBe(true)
    }
  })
})

describe('transfer desk', () => {
  it('never withdraws more than the free balance and numbers transfers 1, 2, 3', () => {
    const ledger = new Ledger([{ ref: CHN_USDT.quote, decimals: 6 }])
    const desk = new TransferDesk(ledger, {
      seed: 1,
      nowMs: () => 1_700_000_000_123,
      onTransfer: () => {},
    })
    expect(desk.deposit('x', USDT, usdt('10'))?.sid).toBe('1')
    ledger.lock('x', USDT, 0, usdt('4'))
    expect(desk.withdraw('x', USDT, usdt('6.000001'))).toBeUndefined()
    const withdrawal = desk.withdraw('x', USDT, usdt('6'))
    expect(withdrawal).toMatchObject({
      sid: '2',
      side: 'withdraw',
      amount: '6.000000',
      from: 'x',
      symbol: 'USDT',
    })
    expect(withdrawal?.created_at).toBe('2023-11-14T22:13:20.123Z')
    expect(ledger.free('x', USDT)).toBe(0n)
    expect(desk.net(USDT)).toBe(usdt('4'))
  })
})
