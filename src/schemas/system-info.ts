/**
 * System info (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'

/** The venue's contracts, payment account and version. */
export const systemInfoSchema = z.object({
  app_contract: z.string(),
  pay_chain_account: z.string(),
  token_contract: z.string(),
  version: z.string(),
})

/** Parsed system info. */
export type SystemInfo = z.output<typeof systemInfoSchema>
