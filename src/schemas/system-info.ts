/**
 * System info (docs/venue-interface.md).
 *
 * @packageDocumentation
 */
import { z } from 'zod'

/**
 * The venue's contracts, payment account and version.
 *
 * @example
 * ```ts
 * import { systemInfoSchema } from 'venue-rx/schemas'
 *
 * systemInfoSchema.parse({
 *   app_contract: 'venue.sim',
 *   pay_chain_account: 'pay.sim',
 *   token_contract: 'token.sim',
 *   version: 'simulator-1',
 * })
 * ```
 */
export const systemInfoSchema = z.object({
  app_contract: z.string(),
  pay_chain_account: z.string(),
  token_contract: z.string(),
  version: z.string(),
})

/**
 * Parsed system info.
 *
 * @example
 * ```ts
 * import type { SystemInfo } from 'venue-rx'
 *
 * const info: SystemInfo = await venue.rest.systemInfo()
 * // { app_contract: 'venue.sim', pay_chain_account: 'pay.sim', token_contract: 'token.sim',
 * //   version: 'simulator-1' }
 * ```
 */
export type SystemInfo = z.output<typeof systemInfoSchema>
