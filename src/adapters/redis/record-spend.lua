-- record-spend.lua: counts one model call's tokens and cost for an API key, and for the end user it
-- names when there is one, once per event id (the request reports its calls as they end; the spine's
-- llm.call events reconcile the calls of a replica that died before it could). One script, so the key
-- and its end user are counted together or not at all; an end user's counters share the key's hash
-- tag, so it stays in one slot on a Redis Cluster.
--
-- KEYS[1] counted marker of the event (the key's)
-- Per holder (the key, then optionally the end user), three keys from KEYS[2]:
--   +1 tokens of the event's minute   +2 spend of the event's day   +3 spend of the event's month
-- ARGV[1] tokens   ARGV[2] cost USD   ARGV[3] marker ttl s   ARGV[4] day ttl s   ARGV[5] month ttl s
-- Returns 1 when counted, 0 when the event had been counted already.
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[3]) then return 0 end
local tokens = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
for k = 2, #KEYS, 3 do
  if tokens > 0 then
    redis.call('INCRBY', KEYS[k], tokens)
    redis.call('PEXPIRE', KEYS[k], 120000)
  end
  if cost > 0 then
    redis.call('INCRBYFLOAT', KEYS[k + 1], ARGV[2])
    redis.call('EXPIRE', KEYS[k + 1], ARGV[4])
    redis.call('INCRBYFLOAT', KEYS[k + 2], ARGV[2])
    redis.call('EXPIRE', KEYS[k + 2], ARGV[5])
  end
end
return 1
