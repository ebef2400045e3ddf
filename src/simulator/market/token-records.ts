/**
 * Token records (docs/venue-interface.md), one per coin, fixed at genesis.
 *
 * @packageDocumentation
 */
import { coinName, extDecimals } from './coins.js'
import { formatFixed, pow10 } from './fixed-point.js'
import type { LedgerCoin } from './ledger.js'
import { derivedString } from './random.js'
import type { TokenRecord } from './types.js'

/** Builds the token of every coin. `supply` is the genesis supply per coin id, ledger units. */
export function buildTokens(
  seed: number,
  coins: readonly LedgerCoin[],
  supply: ReadonlyMap<string, bigint>,
  genesisSec: number,
): TokenRecord[] {
  const date = new Date(genesisSec * 1000).toISOString().slice(0, 10)
  return coins.map(({ ref, decimals }, index) => {
    const lower = ref.symbol.toLowerCase()
    const total = formatFixed(supply.get(ref.id) ?? 0n, decimals)
    const external = ref.contract.endsWith('.ext')
    const chains = [chainEntry(0, 'chain', decimals)]
    if (external) chains.push(chainEntry(1, 'ext', decimals))
    return {
      symbol: ref.symbol,
      name: coinName(ref.symbol),
      decimals,
      chain_contract: ref.contract,
      ext_decimals: extDecimals(ref.symbol, decimals),
      ext_token_address: external ? `0x${derivedString(seed, `token:${ref.id}`, 40)}` : '',
      icon_url: `https://example.com/icons/${lower}.png`,
      info: {
        circulating_supply: total,
        fully_diluted_market_cap: '0',
        historical_high: '0',
        historical_high_date: date,
        historical_low: '0',
        historical_low_date: date,
        intro: `${coinName(ref.symbol)} (${ref.symbol}) as traded on the simulated venue.`,
        issue_date: date,
        market_capitalization: '0',
        market_dominance: '0',
        maximum_supply: total,
        rank: String(index + 1),
        total_supply: total,
        volume: '0',
        volume_div_market_cap: '0',
        links: [{ name: 'website', url: `https://example.com/tokens/${lower}` }],
      },
      support_chain: chains,
    }
  })
}

function chainEntry(
  chainId: number,
  chainName: string,
  decimals: number,
): TokenRecord['support_chain'][number] {
  const one = pow10(decimals)
  return {
    chain_id: chainId,
    chain_name: chainName,
    permission_id: chainId,
    withdraw_fee: formatFixed(chainId === 0 ? 0n : one, decimals),
    ext_withdraw_fee: formatFixed(chainId === 0 ? 0n : one, decimals),
    min_deposit_amount: formatFixed(one, decimals),
    min_withdraw_amount: formatFixed(one * 2n, decimals),
  }
}
