/**
 * Realistic wire payloads (what the live service sends: snake_case, times as integers
 * of seconds, decimals as strings), one per endpoint.
 */

export const T = 1_700_000_000

export const depth = {
  pool_id: 1,
  precision: '0.0001',
  timestamp: T * 1000 + 123,
  bids: [
    ['1.0452', '310.5'],
    ['1.0450', '12'],
  ],
  asks: [['1.0460', '7.25']],
}

export const kline = {
  pool_id: 1,
  interval: '1m',
  open: 1.04,
  high: 1.05,
  low: 1.03,
  close: 1.045,
  volume: 1200.5,
  turnover: 1254.1,
  count: 42,
  timestamp: T,
}

export const publicTrade = {
  pool_id: 1,
  buyer: 'alice',
  seller: 'bob',
  price: '1.0455',
  quantity: '3.5',
  side: 'buy',
  traded_at: T,
}

export const accountInfo = {
  chain_account: 'alice',
  parent_chain_account: '',
  permission: 'active',
}

export const balance = {
  coin: 'usdt.ext-USDT',
  balance: '1000.25',
  locked: '10',
  locks: [{ balance: '10', pool_id: 1, pool_symbol: 'chain.token-CHN-usdt.ext-USDT' }],
  stablecoin_price: '1',
}

export const tradeDetail = {
  global_seq: 1001,
  tx_id: 'ab12',
  pool_id: 1,
  base_coin: 'chain.token-CHN',
  quote_coin: 'usdt.ext-USDT',
  base_quantity: '2',
  quote_quantity: '2.09',
  price: '1.045',
  timestamp: T,
  taker: 'alice',
  taker_fee: '0.00627',
  taker_is_bid: true,
  taker_order_id: 7,
  taker_order_cid: 'cid-7',
  taker_permission: 'active',
  maker: 'bob',
  maker_fee: '0.002',
  maker_order_id: 5,
  maker_order_cid: '',
  maker_permission: 'active',
}

export const openOrder = {
  id: '1-7-0',
  order_id: 7,
  order_cid: 'cid-7',
  pool_id: 1,
  pool_symbol: 'chain.token-CHN-usdt.ext-USDT',
  pool_base_coin: 'chain.token-CHN',
  pool_quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 4,
  quote_coin_precision: 6,
  side: 0,
  type: 1,
  order_price: '1.045',
  order_amount: '10',
  order_total: '10.45',
  avg_price: '1.045',
  executed_amount: '2',
  order_time: T,
  trader: 'alice',
}

export const order = {
  ...openOrder,
  filled_total: '2.09',
  history: false,
  permission: 'active',
  status: 1,
  unread: false,
}

export const orderWithTrades = { ...order, trades: [tradeDetail] }

export const transfer = {
  amount: '50',
  contract: 'usdt.ext',
  symbol: 'USDT',
  from: 'bridge',
  to: 'alice',
  tx_id: 'tx-9',
  side: 'deposit',
  sid: '17',
  name: 'deposit',
  created_at: '2023-11-14T22:13:20.000Z',
}

export const ping = { timestamp: T }

export const systemInfo = {
  app_contract: 'venue.app',
  pay_chain_account: 'venue.pay',
  token_contract: 'chain.token',
  version: '2.1.0',
}

export const poolSummary = {
  pool_id: 1,
  symbol: 'chain.token-CHN-usdt.ext-USDT',
  base_coin: 'chain.token-CHN',
  quote_coin: 'usdt.ext-USDT',
  base_coin_precision: 4,
  quote_coin_precision: 6,
  price_precision: 4,
  last_price: '1.045',
  high: '1.1',
  low: '0.99',
  change: '0.02',
  change_rate: 0.0195,
  trades: 420,
  volume: '12000',
  turnover: '12540',
  updated_at: T,
}

export const poolDetail = {
  pool_id: 1,
  symbol: poolSummary.symbol,
  status: 1,
  base_coin: poolSummary.base_coin,
  quote_coin: poolSummary.quote_coin,
  base_contract: 'chain.token',
  quote_contract: 'usdt.ext',
  base_symbol: 'CHN',
  quote_symbol: 'USDT',
  base_coin_precision: 4,
  quote_coin_precision: 6,
  price_precision: 4,
  maker_fee_rate: 0.001,
  taker_fee_rate: 0.003,
  min_amount: '1',
  max_flct: 0.1,
  asking_time: T,
  trading_time: T,
  pool_stats: poolSummary,
}

/** The all-zero record the live service answers for an unknown pool id. */
export const zeroPool = {
  ...Object.fromEntries(Object.keys(poolDetail).map((k) => [k, ''])),
  pool_id: 0,
  status: 0,
}

export const token = {
  symbol: 'USDT',
  name: 'Tether',
  decimals: 6,
  chain_contract: 'usdt.ext',
  ext_decimals: 6,
  ext_token_address: '0xabc',
  icon_url: 'icons/usdt.png',
  info: { intro: 'a stable coin', rank: '3', links: [{ name: 'site', url: 'example.invalid' }] },
  support_chain: [
    {
      chain_id: 1,
      chain_name: 'ext',
      permission_id: 2,
      withdraw_fee: '1',
      ext_withdraw_fee: '0.5',
      min_deposit_amount: '1',
      min_withdraw_amount: '5',
    },
  ],
}

/** Wire data per REST method, for a server that answers every endpoint. */
export const dataByPath: Record<string, unknown> = {
  '/api/v1/depth': depth,
  '/api/v1/depth/v2': depth,
  '/api/v1/klines': [kline],
  '/api/v1/klines/v2': [kline],
  '/api/v1/latest-trades': [publicTrade],
  '/api/v1/latest-trades/v2': [publicTrade],
  '/api/v1/info': accountInfo,
  '/api/v1/balances': [balance],
  '/api/v1/history-orders': [order],
  '/api/v1/open-orders': [openOrder],
  '/api/v1/trades': [tradeDetail],
  '/api/v1/transfers': [transfer],
  '/api/v1/ping': ping,
  '/api/v1/system-info': systemInfo,
  '/api/v1/pools': [poolSummary],
  '/api/v1/tokens': [token],
}

/** Data for any path, including the ones with a path parameter. */
export function dataFor(pathname: string): unknown {
  const exact = dataByPath[pathname]
  if (exact !== undefined) return exact
  if (pathname.startsWith('/api/v1/orders/client-id/')) return order
  if (pathname.startsWith('/api/v1/orders/')) return orderWithTrades
  if (pathname.startsWith('/api/v1/pools/')) return poolDetail
  if (pathname.startsWith('/api/v1/token/')) return token
  return null
}
