import type { TransferRecord } from '../market/types.js'
import { PARAM_NAMES } from './param-names.js'
import { integerOr, optionalDigits, optionalInteger, sortDirection } from './query.js'
import { ok, type Reply } from './reply.js'

const names = PARAM_NAMES.transfers

/** A transfer with its sort keys read once. */
interface Keyed {
  readonly record: TransferRecord
  readonly createdMs: number
  readonly sid: bigint
}

function keyed(record: TransferRecord): Keyed {
  const createdMs = Date.parse(record.created_at)
  return {
    record,
    createdMs: Number.isNaN(createdMs) ? 0 : createdMs,
    sid: /^\d+$/.test(record.sid) ? BigInt(record.sid) : 0n,
  }
}

function compare(a: Keyed, b: Keyed): number {
  if (a.createdMs !== b.createdMs) return a.createdMs - b.createdMs
  return a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0
}

/**
 * Filters, sorts and pages an account's transfers for `/api/v1/transfers`: `id` (only
 * transfers whose `sid` is a greater integer), `start` / `end` (Unix seconds, inclusive,
 * on the second of `created_at`), `sort` (`asc` | `desc`, default `desc`, by created_at
 * then sid) and `limit` (1..1000, default 50). `meta.total` counts the filtered
 * transfers before paging.
 *
 * @example
 * ```ts
 * listTransfers(transfers, new URLSearchParams('id=41&sort=asc&limit=10'))
 * // the 10 transfers following sid 41, oldest first
 * ```
 */
export function listTransfers(transfers: readonly TransferRecord[], query: URLSearchParams): Reply {
  const afterId = optionalDigits(query, names.afterId)
  const start = optionalInteger(query, names.start)
  const end = optionalInteger(query, names.end)
  const sort = sortDirection(query, names.sort, 'desc')
  const limit = integerOr(query, names.limit, 50, { min: 1, max: 1000 })
  const matching = transfers.map(keyed).filter(({ createdMs, sid }) => {
    const second = Math.floor(createdMs / 1000)
    return (
      (afterId === undefined || sid > afterId) &&
      (start === undefined || second >= start) &&
      (end === undefined || second <= end)
    )
  })
  matching.sort(sort === 'asc' ? compare : (a, b) => compare(b, a))
  const page = matching.slice(0, limit).map(({ record }) => record)
  return ok(page, { total: matching.length })
}
