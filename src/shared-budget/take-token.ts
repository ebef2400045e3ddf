/**
 * A token bucket shared by every client of one venue and key, timed by Redis's clock.
 * KEYS[1] bucket; ARGV: rate per second, capacity. Returns 0 when a token was taken, else
 * how many ms until one will be there.
 */
export const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or capacity
local at = tonumber(saved[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / rate) + 1000)
return wait`
