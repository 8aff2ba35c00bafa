--[[
  finish-batch-item: records one item's outcome unless it already has one (the first outcome
  wins: a redelivered job cannot count twice), and counts it under its status.

  KEYS[1]  batch progress (hash: total, succeeded, failed, cancelled[, cancelledAt])
  KEYS[2]  batch results (hash: item index -> JSON ItemOutcome)
  ARGV[1]  item index (decimal, canonical)
  ARGV[2]  outcome JSON
  ARGV[3]  the counter to increment: succeeded | failed | cancelled

  Returns  {1, pending} recorded (pending: items still without an outcome),
           {0, 0} the item already had an outcome (nothing changed),
           {-1, 0} unknown (or expired) batch, or an index outside it
  Errors   none of its own.
]]
local total = tonumber(redis.call('HGET', KEYS[1], 'total'))
if total == nil then
  return {-1, 0}
end
local index = tonumber(ARGV[1])
if index == nil or index < 0 or index >= total or index % 1 ~= 0 then
  return {-1, 0}
end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then
  return {0, 0}
end
-- Results expire with the batch they belong to.
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
redis.call('HINCRBY', KEYS[1], ARGV[3], 1)
return {1, total - redis.call('HLEN', KEYS[2])}
