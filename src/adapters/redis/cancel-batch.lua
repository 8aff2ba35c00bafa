--[[
  cancel-batch: marks a batch cancelled; the first cancel's time stays.

  KEYS[1]  batch progress (hash: total, succeeded, failed, cancelled[, cancelledAt])
  ARGV[1]  cancel time, epoch ms

  Returns  1 cancelled now, 0 already cancelled, -1 unknown (or expired) batch
  Errors   none of its own.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('HSETNX', KEYS[1], 'cancelledAt', ARGV[1])
