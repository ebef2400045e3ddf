import { createHash } from 'node:crypto'
import type { RedisClient as Redis } from '../redis/redis.js'

/**
 * The Lua scripts a relay runs in Redis. Each is one atomic step, so that two relays (or a
 * relay that stalled past its lease) can never both publish a stream.
 */

/**
 * Takes the lease if it is free or already ours, for `ARGV[2]` ms.
 * KEYS[1] lease; ARGV[1] owner (relay id and this process's nonce); returns 1 when held.
 */
export const ACQUIRE = `
local owner = redis.call('GET', KEYS[1])
if owner == false or owner == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`

/**
 * Renews the lease of a session that holds it, and only then: a lease that is gone (Redis
 * lost its data, or it ran out) is not made again, and the session ends. Ends it too when
 * the last entry the session published is no longer in the stream (the stream lost its
 * history: evicted, flushed). KEYS: lease, stream. ARGV: owner, ms, the id of the last
 * entry published (`''` for none yet). Returns 1 when renewed, `'lost'` or `'gone'`.
 */
export const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'lost' end
if ARGV[3] ~= '' and #redis.call('XRANGE', KEYS[2], ARGV[3], ARGV[3]) == 0 then return 'gone' end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`

/** Gives the lease up if it is ours. KEYS[1] lease; ARGV[1] owner. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

/**
 * Publishes the events of one poll (one or more) in one call, fenced by the lease: nothing
 * is written unless `ARGV[1]` holds it, and a script runs whole, so the one check covers
 * every write of the call. KEYS: stream, state, lease, floor, fence. ARGV: owner (relay id
 * and nonce), the entries to keep, the session (owner and a number of the publisher's
 * sessions), the number of this publish in the session (from 1), then per event three
 * values: its entry id (`*` or explicit), its JSON, and the state after it (`''` to keep
 * the state as it is).
 * The fence key holds `<session> <number>` of the last publish of the session written
 * whole: a publish after the first one of its session writes nothing unless the one before
 * it was written whole, and returns `'gap'`. A session sends its publishes without
 * waiting for the replies; on one connection Redis runs them in the order sent, and the
 * fence makes sure that one that failed (an error, an unknown script) is never followed
 * by a later one, which is sent again after it, or not at all.
 * Events are added in order. An explicit id that is not after the last entry is skipped
 * (that item is published already), and so is the state given with it. The state key
 * holds the last state given, under the id of its event (`<id> <state>`); it is written
 * once per call, also before an error is returned, so it never lags behind an entry
 * written. Once the stream holds a tenth more than it keeps, its oldest entries are
 * trimmed down to what it keeps, and the id of the last one trimmed is stored as the
 * floor: a reader starting before the floor would miss entries, and is told so.
 * Returns `[entries added, id of the last one added ('' for none)]`, `'lost'` when the
 * lease is not ours, or `'gap'`.
 */
export const PUBLISH = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 'lost' end
if ARGV[4] ~= '1' and redis.call('GET', KEYS[5]) ~= ARGV[3] .. ' ' .. (tonumber(ARGV[4]) - 1) then
  return 'gap'
end
local added = 0
local last = ''
local state = false
for i = 5, #ARGV, 3 do
  local id = redis.pcall('XADD', KEYS[1], ARGV[i], 'e', ARGV[i + 1])
  if type(id) == 'table' and id.err then
    if not string.find(id.err, 'equal or smaller', 1, true) then
      if state then redis.call('SET', KEYS[2], state) end
      return id
    end
  else
    added = added + 1
    last = id
    if ARGV[i + 2] ~= '' then state = id .. ' ' .. ARGV[i + 2] end
  end
end
if state then redis.call('SET', KEYS[2], state) end
redis.call('SET', KEYS[5], ARGV[3] .. ' ' .. ARGV[4])
local keep = tonumber(ARGV[2])
local length = redis.call('XLEN', KEYS[1])
if length > keep + math.floor(keep / 10) then
  local excess = length - keep
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', excess + 1)
  redis.call('SET', KEYS[4], oldest[excess][1])
  redis.call('XTRIM', KEYS[1], 'MINID', oldest[excess + 1][1])
end
return { added, last }`

const PUBLISH_SHA = createHash('sha1').update(PUBLISH).digest('hex')

/** Whether `error` is Redis's answer to EVALSHA of a script it does not know. */
export const isNoScript = (error: unknown): boolean =>
  error instanceof Error && error.message.startsWith('NOSCRIPT')

/**
 * Sends {@link PUBLISH} by its SHA1 (EVALSHA: the script's text is not sent each time) at
 * once; rejects with `NOSCRIPT` when Redis does not know it (see {@link runPublish}).
 */
export function sendPublish(redis: Redis, args: readonly (string | number)[]): Promise<unknown> {
  return redis.evalsha(PUBLISH_SHA, 5, ...args)
}

/**
 * Runs {@link PUBLISH} by its SHA1, loading it with EVAL when Redis does not know it yet
 * (a new or restarted server).
 */
export async function runPublish(
  redis: Redis,
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await sendPublish(redis, args)
  } catch (error) {
    if (!isNoScript(error)) throw error
    return await redis.eval(PUBLISH, 5, ...args)
  }
}
