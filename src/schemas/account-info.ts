/**
 * Account info (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'

/** The authenticated account: its chain account, parent chain account and permission. */
export const accountInfoSchema = z.object({
  chain_account: z.string(),
  parent_chain_account: z.string(),
  permission: z.string(),
})

/** Parsed account info. */
export type AccountInfo = z.output<typeof accountInfoSchema>
