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

/** A named link in token info; absent `name` or `url` becomes `''`. */
export const tokenLinkSchema = z.object({
  name: infoText,
  url: infoText,
})

/** A parsed token info link. */
export type TokenLink = z.output<typeof tokenLinkSchema>

/**
 * Descriptive market information about a token. Token info is often sparse, so every text
 * field defaults to `''` and `links` to `[]` when absent.
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

/** Parsed token info. */
export type TokenInfo = z.output<typeof tokenInfoSchema>

/** A chain the token can be deposited from or withdrawn to, with its fees and minimums. */
export const tokenChainSchema = z.object({
  chain_id: safeInteger,
  chain_name: z.string(),
  permission_id: safeInteger,
  withdraw_fee: decimalString,
  ext_withdraw_fee: decimalString,
  min_deposit_amount: decimalString,
  min_withdraw_amount: decimalString,
})

/** A parsed supported chain entry. */
export type TokenChain = z.output<typeof tokenChainSchema>

/**
 * A token. `info` becomes an object of defaults (every text `''`, no links) when absent,
 * and `support_chain` becomes `[]` when absent.
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

/** A parsed token. */
export type Token = z.output<typeof tokenSchema>
