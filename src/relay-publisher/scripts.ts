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
 * Publishes one event, fenced by the lease: nothing is written unless `ARGV[1]` holds it.
 * KEYS: stream, state, lease, floor. ARGV: owner, entry id (`*` or explicit), the
 * entries to keep, event JSON, state text (`''` to keep the state as it is).
 * Once the stream holds a tenth more than it keeps, its oldest entries are trimmed down
 * to what it keeps, and the id of the last one trimmed is stored as the floor: a reader
 * starting before the floor would miss entries, and is told so.
 * Returns the entry id, `'lost'` when the lease is not ours, or `'old'` when an explicit id
 * is not after the last entry (that item is published already).
 */
export const PUBLISH = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 'lost' end
local id = redis.pcall('XADD', KEYS[1], ARGV[2], 'e', ARGV[4])
if type(id) == 'table' and id.err then
  if string.find(id.err, 'equal or smaller', 1, true) then return 'old' end
  return id
end
if ARGV[5] ~= '' then redis.call('SET', KEYS[2], id .. ' ' .. ARGV[5]) end
local keep = tonumber(ARGV[3])
local length = redis.call('XLEN', KEYS[1])
if length > keep + math.floor(keep / 10) then
  local excess = length - keep
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', excess + 1)
  redis.call('SET', KEYS[4], oldest[excess][1])
  redis.call('XTRIM', KEYS[1], 'MINID', oldest[excess + 1][1])
end
return id`
