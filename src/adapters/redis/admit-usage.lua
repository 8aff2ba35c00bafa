-- admit-usage.lua: admits one request of an API key under its limits, and under the limits of the
-- end user it names when there is one, or names the limit that refuses it. One script, so
-- admissions from every replica are serialised by Redis and `rpm: 50` admits exactly 50 of 100
-- parallel requests; an end user's counters share the key's hash tag, so the script stays in one
-- slot on a Redis Cluster. Both holders are checked before either is counted.
--
-- Per holder (the key, then optionally the end user), five keys:
--   +1 requests this minute (counter)    +2 tokens this minute (counter)
--   +3 leases in flight (zset: lease id -> expiry ms)
--   +4 budget reservations (hash: lease id -> USD)    +5 spend this budget period (float)
-- ARGV[1] now ms   ARGV[2] this request's reservation USD   ARGV[3] lease id   ARGV[4] lease ttl ms
-- ARGV[5] seconds left in the minute
-- Per holder, five arguments from ARGV[6]: rpm, tpm, max concurrent, budget USD (a negative limit
--   means none), seconds left in the budget period.
-- Returns {'ok'} or {limit name, retry-after seconds, 'key' | 'end_user'}.
local now = tonumber(ARGV[1])
local reserve = tonumber(ARGV[2])
local holders = #KEYS / 5
local names = {'key', 'end_user'}

local function refusal(h)
  local k = (h - 1) * 5
  local a = 5 + (h - 1) * 5
  -- Leases whose replica died before releasing them stop counting, with their reservations.
  local expired = redis.call('ZRANGEBYSCORE', KEYS[k + 3], '-inf', now)
  if #expired > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[k + 3], '-inf', now)
    redis.call('HDEL', KEYS[k + 4], unpack(expired))
  end
  local rpm = tonumber(ARGV[a + 1])
  if rpm >= 0 and tonumber(redis.call('GET', KEYS[k + 1]) or '0') >= rpm then return {'rpm', ARGV[5]} end
  local tpm = tonumber(ARGV[a + 2])
  if tpm >= 0 and tonumber(redis.call('GET', KEYS[k + 2]) or '0') >= tpm then return {'tpm', ARGV[5]} end
  local concurrent = tonumber(ARGV[a + 3])
  if concurrent >= 0 and redis.call('ZCARD', KEYS[k + 3]) >= concurrent then return {'max_concurrent', '1'} end
  local budget = tonumber(ARGV[a + 4])
  if budget >= 0 then
    local spent = tonumber(redis.call('GET', KEYS[k + 5]) or '0')
    local reserved = 0
    for _, amount in ipairs(redis.call('HVALS', KEYS[k + 4])) do reserved = reserved + tonumber(amount) end
    if spent >= budget or spent + reserved + reserve > budget then return {'budget', ARGV[a + 5]} end
  end
  return nil
end

for h = 1, holders do
  local refused = refusal(h)
  if refused then return {refused[1], refused[2], names[h]} end
end

local ttl = tonumber(ARGV[4])
for h = 1, holders do
  local k = (h - 1) * 5
  redis.call('INCR', KEYS[k + 1])
  redis.call('PEXPIRE', KEYS[k + 1], 120000)
  redis.call('ZADD', KEYS[k + 3], now + ttl, ARGV[3])
  redis.call('PEXPIRE', KEYS[k + 3], ttl * 2)
  if reserve > 0 then
    redis.call('HSET', KEYS[k + 4], ARGV[3], ARGV[2])
    redis.call('PEXPIRE', KEYS[k + 4], ttl * 2)
  end
end
return {'ok'}
