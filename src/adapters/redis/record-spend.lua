-- record-spend.lua: counts one model call's tokens and cost for an API key, once per event id
-- (the request reports its calls as they end; the spine's llm.call events reconcile the calls of a
-- replica that died before it could).
--
-- KEYS[1] counted marker of the event   KEYS[2] tokens of the event's minute
-- KEYS[3] spend of the event's day      KEYS[4] spend of the event's month
-- ARGV[1] tokens   ARGV[2] cost USD   ARGV[3] marker ttl s   ARGV[4] day ttl s   ARGV[5] month ttl s
-- Returns 1 when counted, 0 when the event had been counted already.
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[3]) then return 0 end
local tokens = tonumber(ARGV[1])
if tokens > 0 then
  redis.call('INCRBY', KEYS[2], tokens)
  redis.call('PEXPIRE', KEYS[2], 120000)
end
if tonumber(ARGV[2]) > 0 then
  redis.call('INCRBYFLOAT', KEYS[3], ARGV[2])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
  redis.call('INCRBYFLOAT', KEYS[4], ARGV[2])
  redis.call('EXPIRE', KEYS[4], ARGV[5])
end
return 1
