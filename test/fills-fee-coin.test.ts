/**
 * A fill says the coin its fee is charged in (`feeCoin`): the venue takes the fee from
 * what the account receives, so a buy pays it in the base coin and a sell in the quote
 * coin, maker or taker alike. Checked on trade records (`fillsOf`) and against the
 * simulator's ledger: for real fills, each coin's balance moves by exactly what the fills
 * received of it, less the fees they say are charged in it, less what they paid of it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  addDecimal,
  compareDecimal,
  type Fill,
  subtractDecimal,
  type TradeDetail,
  type Venue,
} from '../src/index.js'
import type { Simulator } from '../src/simulator/index.js'
import { fillsOf } from '../src/streams/fills.js'
import { runCleanups } from './helpers/cleanups.js'
import { collect } from './helpers/observe.js'
import { FAST, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

const BASE = 'chain.token-CHN'
const QUOTE = 'usdt.ext-USDT'

/** A trade between `taker` and `maker`; the taker bought when `takerIsBid`. */
function trade(taker: string, maker: string, takerIsBid: boolean): TradeDetail {
  return {
    global_seq: '1058',
    tx_id: 'ab12',
    pool_id: 2,
    base_coin: BASE,
    quote_coin: QUOTE,
    base_quantity: '0.03800',
    quote_quantity: '83.4860',
    price: '2197.0',
    timestamp: 1_700_000_100_000,
    taker,
    taker_fee: '0.2505',
    taker_is_bid: takerIsBid,
    taker_order_id: '670',
    taker_order_cid: 'cid-670',
    taker_permission: 'active',
    maker,
    maker_fee: '0.00004',
    maker_order_id: '669',
    maker_order_cid: 'cid-669',
    maker_permission: 'active',
  }
}

describe('fillsOf: the fee coin is the coin the account receives', () => {
  it.each([
    { role: 'taker', takerIsBid: true, side: 'buy', feeCoin: BASE },
    { role: 'taker', takerIsBid: false, side: 'sell', feeCoin: QUOTE },
    { role: 'maker', takerIsBid: false, side: 'buy', feeCoin: BASE },
    { role: 'maker', takerIsBid: true, side: 'sell', feeCoin: QUOTE },
  ] as const)(
    'a $role on the $side side pays its fee in $feeCoin',
    ({ role, takerIsBid, side, feeCoin }) => {
      const record =
        role === 'taker' ? trade('me', 'other', takerIsBid) : trade('other', 'me', takerIsBid)
      const [fill] = fillsOf(record, 'me')
      expect(fill).toMatchObject({ role, side, feeCoin })
    },
  )

  it('a self-trade gives the buyer fill base and the seller fill quote', () => {
    const fills = fillsOf(trade('me', 'me', true), 'me')
    expect(fills.map(({ role, side, feeCoin }) => ({ role, side, feeCoin }))).toEqual([
      { role: 'maker', side: 'sell', feeCoin: QUOTE },
      { role: 'taker', side: 'buy', feeCoin: BASE },
    ])
  })
})

/** The account's whole holding of each coin (free plus locked), by coin. */
async function holdings(venue: Venue): Promise<Map<string, string>> {
  return new Map((await venue.rest.balances()).map((b) => [b.coin, b.balance]))
}

/**
 * Places one order (by `place`) and returns the account's fills of the trades it made,
 * with the pool's coins and the account's holdings before and after.
 */
async function fillsOfOrder(
  sim: Simulator,
  venue: Venue,
  place: () => Promise<unknown>,
): Promise<{
  fills: Fill[]
  base: string
  quote: string
  before: Map<string, string>
  after: Map<string, string>
}> {
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('no demo account')
  const me = account.info().chain_account
  const seen = new Set(account.trades().map((t) => String(t.global_seq)))
  const head = (await venue.rest.trades({ sort: 'desc', limit: 1 }))[0]?.global_seq
  const before = await holdings(venue)
  await place()
  const after = await holdings(venue)
  const made = account.trades().filter((t) => !seen.has(String(t.global_seq)))
  expect(made.length, 'the order traded').toBeGreaterThan(0)
  const expected = made.reduce((n, t) => n + (t.maker === me ? 1 : 0) + (t.taker === me ? 1 : 0), 0)
  const fills = collect(venue.watchFills(head === undefined ? {} : { cursor: head }))
  await waitFor(
    () => fills.values.length >= expected || fills.error !== undefined,
    'the fills',
    10_000,
  )
  expect(fills.error).toBeUndefined()
  const [first] = made
  return {
    fills: fills.values.slice(0, expected),
    base: first?.base_coin ?? '',
    quote: first?.quote_coin ?? '',
    before,
    after,
  }
}

/**
 * What the fills say each coin's balance moved by: a buy receives base and pays quote, a
 * sell the other way round; each fee comes off the coin the fill names.
 */
function movesOf(fills: readonly Fill[], base: string, quote: string): Map<string, string> {
  const moves = new Map<string, string>([
    [base, '0'],
    [quote, '0'],
  ])
  const add = (coin: string, amount: string) =>
    moves.set(coin, addDecimal(moves.get(coin) ?? '0', amount))
  for (const fill of fills) {
    const [received, paid] = fill.side === 'buy' ? [base, quote] : [quote, base]
    add(received, fill.side === 'buy' ? fill.quantity : fill.quoteQuantity)
    add(paid, `-${fill.side === 'buy' ? fill.quoteQuantity : fill.quantity}`)
    add(fill.feeCoin, `-${fill.fee}`)
  }
  return moves
}

function expectLedgerAgrees(result: Awaited<ReturnType<typeof fillsOfOrder>>): void {
  const { fills, base, quote, before, after } = result
  for (const [coin, moved] of movesOf(fills, base, quote)) {
    const actual = subtractDecimal(after.get(coin) ?? '0', before.get(coin) ?? '0')
    expect(compareDecimal(actual, moved), `${coin}: moved ${actual}, the fills say ${moved}`).toBe(
      0,
    )
  }
}

/** Pool 0's best bid and ask on the simulator's engine. */
function bestOf(sim: Simulator): { bid: string; ask: string } {
  const book = sim.truth.engineBook(0)
  return { bid: book.bids[0]?.[0] ?? '0', ask: book.asks[0]?.[0] ?? '0' }
}

/** A price inside pool 0's spread (4 decimals), `at` its bid or ask end. */
function insideSpread(sim: Simulator, at: 'bid' | 'ask'): string {
  const { bid, ask } = bestOf(sim)
  expect(Number(ask) - Number(bid)).toBeGreaterThan(0.0002)
  return (at === 'bid' ? Number(bid) + 0.0001 : Number(ask) - 0.0001).toFixed(4)
}

describe('on the simulator: each coin moves by what the fills received less the fees charged in it', () => {
  it('the account as maker, buying then selling: fee in base, then in quote', async () => {
    const { sim, venue } = await startSimulatorVenue(FAST)
    const other = sim.apiKeys[1] ?? ''
    const limit = (side: 'buy' | 'sell', price: string, account?: string) =>
      sim.placeOrder({
        poolId: 0,
        side,
        type: 'limit',
        price,
        amount: '0.02',
        ...(account ? { account } : {}),
      })

    const buyPrice = insideSpread(sim, 'bid')
    await limit('buy', buyPrice)
    const bought = await fillsOfOrder(sim, venue, () => limit('sell', buyPrice, other))
    expect(bought.fills.map((f) => [f.role, f.side, f.feeCoin])).toEqual([
      ['maker', 'buy', bought.base],
    ])
    expectLedgerAgrees(bought)

    const sellPrice = insideSpread(sim, 'ask')
    await limit('sell', sellPrice)
    const sold = await fillsOfOrder(sim, venue, () => limit('buy', sellPrice, other))
    expect(sold.fills.map((f) => [f.role, f.side, f.feeCoin])).toEqual([
      ['maker', 'sell', sold.quote],
    ])
    expectLedgerAgrees(sold)
  })

  it('the account as taker, buying then selling: fee in base, then in quote', async () => {
    const { sim, venue } = await startSimulatorVenue(FAST)
    const limit = (side: 'buy' | 'sell', price: string) =>
      sim.placeOrder({ poolId: 0, side, type: 'limit', price, amount: '0.01' })

    const bought = await fillsOfOrder(sim, venue, () => limit('buy', bestOf(sim).ask))
    expect(bought.fills.every((f) => f.role === 'taker' && f.side === 'buy')).toBe(true)
    expect(bought.fills.every((f) => f.feeCoin === bought.base)).toBe(true)
    expectLedgerAgrees(bought)

    const sold = await fillsOfOrder(sim, venue, () => limit('sell', bestOf(sim).bid))
    expect(sold.fills.every((f) => f.role === 'taker' && f.side === 'sell')).toBe(true)
    expect(sold.fills.every((f) => f.feeCoin === sold.quote)).toBe(true)
    expectLedgerAgrees(sold)
  })
})
