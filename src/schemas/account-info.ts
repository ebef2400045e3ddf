/**
 * Account info (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'

/**
 * The authenticated account: its chain account, parent chain account and permission.
 *
 * @example
 * ```ts
 * import { accountInfoSchema } from 'venue-rx/schemas'
 *
 * accountInfoSchema.parse({
 *   chain_account: 'demo.trader',
 *   parent_chain_account: 'venue.users',
 *   permission: 'active',
 * })
 * ```
 */
export const accountInfoSchema = z.object({
  chain_account: z.string(),
  parent_chain_account: z.string(),
  permission: z.string(),
})

/**
 * Parsed account info.
 *
 * @example
 * ```ts
 * import type { AccountInfo } from 'venue-rx'
 *
 * const account: AccountInfo = await venue.rest.accountInfo()
 * // { chain_account: 'demo.trader', parent_chain_account: 'venue.users', permission: 'active' }
 * ```
 */
export type AccountInfo = z.output<typeof accountInfoSchema>
