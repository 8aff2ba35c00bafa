--[[
  create-batch: stores a batch, its progress counters and its prompts in one step, unless the id
  is taken. Every key gets the batch's TTL.

  KEYS[1]  batch record (string, JSON BatchRecord)
  KEYS[2]  batch progress (hash: total, succeeded, failed, cancelled[, cancelledAt])
  KEYS[3]  batch prompts (hash: item index -> prompt text)
  ARGV[1]  TTL in ms
  ARGV[2]  record JSON
  ARGV[3]  total (number of prompts)
  ARGV[4…] the prompts, item 0 first

  Returns  1 created, 0 when the id is taken (nothing changed)
  Errors   none of its own.
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
redis.call('HSET', KEYS[2], 'total', ARGV[3], 'succeeded', 0, 'failed', 0, 'cancelled', 0)
redis.call('PEXPIRE', KEYS[2], ARGV[1])
-- One HSET per prompt: unpack() of thousands of arguments would overflow Lua's stack.
for i = 4, #ARGV do
  redis.call('HSET', KEYS[3], i - 4, ARGV[i])
end
redis.call('PEXPIRE', KEYS[3], ARGV[1])
return 1
