-- compact-conversation.lua: replaces the messages a summary covers (seq <= ARGV[2]) by the summary
-- and restarts the TTL, atomically: messages appended since the caller read the session are kept.
--
-- KEYS[1] turns LIST   KEYS[2] meta HASH (see append-conversation.lua)
-- ARGV[1] ttl ms   ARGV[2] through seq   ARGV[3] summary
-- Returns the number of messages kept, or -1 when the session is gone (nothing written).
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
local through = tonumber(ARGV[2])
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head then break end
  local message = cjson.decode(head)
  if message.seq > through then break end
  redis.call('LPOP', KEYS[1])
  bytes = bytes - string.len(message.content)
end
redis.call('HSET', KEYS[2], 'bytes', bytes, 'summary', ARGV[3])
local ttl = tonumber(ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return redis.call('LLEN', KEYS[1])
