/**
 * Token (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'
import { decimalString, nonNegativeSafeInteger, safeInteger } from './primitives.js'

/**
 * A text field of token info that many tokens leave out: absent becomes `''`. Info is
 * descriptive and loosely typed upstream, so a number (e.g. `rank: 5`) is kept as its text.
 */
const infoText = z.union([z.string(), z.number().transform((n) => String(n))]).default('')

/**
 * A named link in token info; absent `name` or `url` becomes `''`.
 *
 * @example
 * ```ts
 * import { tokenLinkSchema } from 'venue-rx/schemas'
 *
 * tokenLinkSchema.parse({ name: 'website' }) // { name: 'website', url: '' }
 * ```
 */
export const tokenLinkSchema = z.object({
  name: infoText,
  url: infoText,
})

/**
 * A parsed token info link.
 *
 * @example
 * ```ts
 * import type { TokenLink } from 'venue-rx'
 *
 * const links: readonly TokenLink[] = (await venue.rest.token('CHN')).info.links
 * // [{ name: 'website', url: 'https://example.com/tokens/chn' }]
 * ```
 */
export type TokenLink = z.output<typeof tokenLinkSchema>

/**
 * Descriptive market information about a token. Token info is often sparse, so every text
 * field defaults to `''` and `links` to `[]` when absent.
 *
 * @example
 * ```ts
 * import { tokenInfoSchema } from 'venue-rx/schemas'
 *
 * tokenInfoSchema.parse({ rank: 5, intro: 'Chain Token' })
 * // { rank: '5', intro: 'Chain Token', circulating_supply: '', ..., links: [] }
 * ```
 */
export const tokenInfoSchema = z.object({
  circulating_supply: infoText,
  fully_diluted_market_cap: infoText,
  historical_high: infoText,
  historical_high_date: infoText,
  historical_low: infoText,
  historical_low_date: infoText,
  intro: infoText,
  issue_date: infoText,
  market_capitalization: infoText,
  market_dominance: infoText,
  maximum_supply: infoText,
  rank: infoText,
  total_supply: infoText,
  volume: infoText,
  volume_div_market_cap: infoText,
  links: z.array(tokenLinkSchema).default(() => []),
})

/**
 * Parsed token info.
 *
 * @example
 * ```ts
 * import type { TokenInfo } from 'venue-rx'
 *
 * const info: TokenInfo = (await venue.rest.token('CHN')).info
 * info.circulating_supply // '6903726.9000' ('' when the venue leaves it out)
 * ```
 */
export type TokenInfo = z.output<typeof tokenInfoSchema>

/**
 * A chain the token can be deposited from or withdrawn to, with its fees and minimums.
 *
 * @example
 * ```ts
 * import { tokenChainSchema } from 'venue-rx/schemas'
 *
 * tokenChainSchema.parse({
 *   chain_id: '0', chain_name: 'chain', permission_id: 0, withdraw_fee: '0.0000',
 *   ext_withdraw_fee: 0, min_deposit_amount: '1.0000', min_withdraw_amount: 2,
 * })
 * // { chain_id: 0, ..., ext_withdraw_fee: '0', min_withdraw_amount: '2' }
 * ```
 */
export const tokenChainSchema = z.object({
  chain_id: safeInteger,
  chain_name: z.string(),
  permission_id: safeInteger,
  withdraw_fee: decimalString,
  ext_withdraw_fee: decimalString,
  min_deposit_amount: decimalString,
  min_withdraw_amount: decimalString,
})

/**
 * A parsed supported chain entry.
 *
 * @example
 * ```ts
 * import type { TokenChain } from 'venue-rx'
 *
 * const chains: readonly TokenChain[] = (await venue.rest.token('CHN')).support_chain
 * // [{ chain_id: 0, chain_name: 'chain', min_withdraw_amount: '2.0000', ... }]
 * ```
 */
export type TokenChain = z.output<typeof tokenChainSchema>

/**
 * A token. `info` becomes an object of defaults (every text `''`, no links) when absent,
 * and `support_chain` becomes `[]` when absent.
 *
 * @example
 * ```ts
 * import { tokenSchema } from 'venue-rx/schemas'
 *
 * const token = tokenSchema.parse({
 *   symbol: 'CHN', name: 'Chain Token', decimals: 4, chain_contract: 'chain.token',
 *   ext_decimals: 4, ext_token_address: '', icon_url: 'https://example.com/icons/chn.png',
 * })
 * token.info.links    // []: no info sent
 * token.support_chain // []
 * ```
 */
export const tokenSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  decimals: nonNegativeSafeInteger,
  chain_contract: z.string(),
  ext_decimals: nonNegativeSafeInteger,
  ext_token_address: z.string(),
  icon_url: z.string(),
  info: tokenInfoSchema.prefault({}),
  support_chain: z.array(tokenChainSchema).default(() => []),
})

/**
 * A parsed token.
 *
 * @example
 * ```ts
 * import type { Token } from 'venue-rx'
 *
 * const tokens: Token[] = await venue.rest.tokens()
 * const decimals = new Map(tokens.map((token) => [token.symbol, token.decimals]))
 * decimals.get('CHN') // 4
 * ```
 */
export type Token = z.output<typeof tokenSchema>
