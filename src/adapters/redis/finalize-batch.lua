--[[
  finalize-batch: records how an OpenAI batch ended (its output and error files); the first
  finalization stays.

  KEYS[1]  batch progress (hash: total, succeeded, failed, cancelled[, cancelledAt][, finalization])
  ARGV[1]  finalization JSON

  Returns  1 recorded now, 0 already finalized, -1 unknown (or expired) batch
  Errors   none of its own.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('HSETNX', KEYS[1], 'finalization', ARGV[1])
