/**
 * The delivered items and the simulator's ground truth as comparable text: a cursor key and
 * the fields compared, for own trades, transfers and public trades.
 */
import type { Fill, PublicTrade, TradeDetail, Transfer } from '../../../src/index.js'
import type {
  PublicTradeRecord,
  Simulator,
  TradeDetailRecord,
  TransferRecord,
} from '../../../src/simulator/index.js'

/** A delivered or true item: its cursor key (digits) and the text of the fields compared. */
export interface Keyed {
  readonly key: string
  readonly text: string
}

/** The key of an id that is a number or a digit string (the field is changing type). */
function idKey(value: unknown): string {
  return BigInt(String(value)).toString()
}

/** The compared fields of a delivered or true trade, with its timestamp in epoch ms. */
function tradeKeyed(trade: TradeDetail | TradeDetailRecord, timestampMs: number): Keyed {
  return {
    key: idKey(trade.global_seq),
    text: [
      trade.tx_id,
      trade.pool_id,
      trade.price,
      trade.base_quantity,
      trade.quote_quantity,
      timestampMs,
      trade.taker,
      trade.maker,
      trade.taker_fee,
      trade.maker_fee,
      idKey(trade.taker_order_id),
      idKey(trade.maker_order_id),
    ].join('|'),
  }
}

export function deliveredTrade(trade: TradeDetail): Keyed {
  return tradeKeyed(trade, trade.timestamp)
}

function trueTrade(trade: TradeDetailRecord): Keyed {
  // Unix seconds on the wire, epoch ms out of the client.
  return tradeKeyed(trade, trade.timestamp * 1000)
}

/** The compared fields of a delivered or true transfer, with its creation time in epoch ms. */
function transferKeyed(transfer: Transfer | TransferRecord, createdAt: number): Keyed {
  const { amount, symbol, side, tx_id, from, to } = transfer
  return {
    key: idKey(transfer.sid),
    text: [amount, symbol, side, tx_id, from, to, createdAt].join('|'),
  }
}

export function deliveredTransfer(transfer: Transfer): Keyed {
  return transferKeyed(transfer, transfer.created_at)
}

function trueTransfer(transfer: TransferRecord): Keyed {
  return transferKeyed(transfer, Date.parse(transfer.created_at))
}

export function publicTradeText(trade: PublicTrade): string {
  const { pool_id, traded_at, price, quantity, side, buyer, seller } = trade
  return [pool_id, traded_at, price, quantity, side, buyer, seller].join('|')
}

export function truePublicTradeText(trade: PublicTradeRecord): string {
  const { pool_id, price, quantity, side, buyer, seller } = trade
  return [pool_id, trade.traded_at * 1000, price, quantity, side, buyer, seller].join('|')
}

/** Every trade of the account behind `apiKey`, from `sim.truth` (every engine trade). */
export function truthTrades(sim: Simulator, account: string): Keyed[] {
  return sim.truth
    .trades()
    .filter((trade) => trade.taker === account || trade.maker === account)
    .map(trueTrade)
}

export function truthTransfers(sim: Simulator, account: string): Keyed[] {
  return sim.truth
    .transfers()
    .filter((transfer) => transfer.from === account || transfer.to === account)
    .map(trueTransfer)
}

/**
 * A fill as comparable text. Its key orders the fills of a self-trade: twice the trade's
 * `global_seq`, plus one for the taker (the maker fill comes first).
 */
function fillKeyed(fill: Pick<Fill, 'globalSeq' | 'role'>, fields: readonly unknown[]): Keyed {
  return {
    key: (BigInt(fill.globalSeq) * 2n + (fill.role === 'taker' ? 1n : 0n)).toString(),
    text: fields.join('|'),
  }
}

export function deliveredFill(fill: Fill): Keyed {
  const { txId, poolId, orderId, price, quantity, quoteQuantity, fee, side, timestamp } = fill
  return fillKeyed(fill, [
    txId,
    poolId,
    orderId,
    price,
    quantity,
    quoteQuantity,
    fee,
    side,
    timestamp,
  ])
}

/** The account's fills in every trade of it, from `sim.truth`: its side of each. */
export function truthFills(sim: Simulator, account: string): Keyed[] {
  return sim.truth.trades().flatMap((trade) => {
    const fills: Keyed[] = []
    for (const role of ['maker', 'taker'] as const) {
      if (trade[role] !== account) continue
      const maker = role === 'maker'
      const bought = maker ? !trade.taker_is_bid : trade.taker_is_bid
      fills.push(
        fillKeyed({ globalSeq: String(trade.global_seq), role }, [
          trade.tx_id,
          trade.pool_id,
          idKey(maker ? trade.maker_order_id : trade.taker_order_id),
          trade.price,
          trade.base_quantity,
          trade.quote_quantity,
          maker ? trade.maker_fee : trade.taker_fee,
          bought ? 'buy' : 'sell',
          trade.timestamp * 1000,
        ]),
      )
    }
    return fills
  })
}
