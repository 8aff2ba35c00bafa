-- admit-usage.lua: admits one request of an API key under its limits, or names the limit that
-- refuses it. One script, so admissions from every replica are serialised by Redis and
-- `rpm: 50` admits exactly 50 of 100 parallel requests.
--
-- KEYS[1] requests this minute (counter)    KEYS[2] tokens this minute (counter)
-- KEYS[3] leases in flight (zset: lease id → expiry ms)
-- KEYS[4] budget reservations (hash: lease id → USD)    KEYS[5] spend this budget period (float)
-- ARGV[1] now ms   ARGV[2] rpm   ARGV[3] tpm   ARGV[4] max concurrent   ARGV[5] budget USD
--         (a negative limit means none)
-- ARGV[6] this request's reservation USD   ARGV[7] lease id   ARGV[8] lease ttl ms
-- ARGV[9] seconds left in the minute   ARGV[10] seconds left in the budget period
-- Returns {'ok'} or {limit name, retry-after seconds}.
local now = tonumber(ARGV[1])

-- Leases whose replica died before releasing them stop counting, with their reservations.
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  redis.call('HDEL', KEYS[4], unpack(expired))
end

local rpm = tonumber(ARGV[2])
if rpm >= 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= rpm then return {'rpm', ARGV[9]} end
local tpm = tonumber(ARGV[3])
if tpm >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= tpm then return {'tpm', ARGV[9]} end
local concurrent = tonumber(ARGV[4])
if concurrent >= 0 and redis.call('ZCARD', KEYS[3]) >= concurrent then return {'max_concurrent', '1'} end
local budget = tonumber(ARGV[5])
local reserve = tonumber(ARGV[6])
if budget >= 0 then
  local spent = tonumber(redis.call('GET', KEYS[5]) or '0')
  local reserved = 0
  for _, amount in ipairs(redis.call('HVALS', KEYS[4])) do reserved = reserved + tonumber(amount) end
  if spent >= budget or spent + reserved + reserve > budget then return {'budget', ARGV[10]} end
end

redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 120000)
local ttl = tonumber(ARGV[8])
redis.call('ZADD', KEYS[3], now + ttl, ARGV[7])
redis.call('PEXPIRE', KEYS[3], ttl * 2)
if reserve > 0 then
  redis.call('HSET', KEYS[4], ARGV[7], ARGV[6])
  redis.call('PEXPIRE', KEYS[4], ttl * 2)
end
return {'ok'}
