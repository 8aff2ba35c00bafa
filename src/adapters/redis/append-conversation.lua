-- append-conversation.lua: appends messages to one conversation, trims the oldest to its bounds and
-- restarts its TTL, atomically (issue 26). Both keys share the session's `{conv:<merchant>:<session>}` tag.
--
-- KEYS[1] turns: LIST of JSON messages `{seq, role, content, at}`, oldest first
-- KEYS[2] meta:  HASH seq (last sequence number), bytes (content bytes of the list), summary?
-- ARGV[1] ttl ms   ARGV[2] max messages   ARGV[3] max content bytes   ARGV[4] now ms
-- ARGV[5..] role, content pairs, in order
-- Returns the number of messages kept.
local ttl, maxTurns, maxBytes, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 5, #ARGV, 2 do
  local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
  local content = ARGV[i + 1]
  redis.call('RPUSH', KEYS[1], cjson.encode({ seq = seq, role = ARGV[i], content = content, at = now }))
  redis.call('HINCRBY', KEYS[2], 'bytes', string.len(content))
end
local length = redis.call('LLEN', KEYS[1])
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
while length > 0 and (length > maxTurns or bytes > maxBytes) do
  local oldest = cjson.decode(redis.call('LPOP', KEYS[1]))
  bytes = bytes - string.len(oldest.content)
  length = length - 1
end
redis.call('HSET', KEYS[2], 'bytes', bytes)
if length > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
redis.call('PEXPIRE', KEYS[2], ttl)
return length
