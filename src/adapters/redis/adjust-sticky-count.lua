--[[
  adjust-sticky-count: moves one customer's net success count on one payment-method combination and
  connector (sticky routing, issue 36), once per dedupe key. Both keys share the customer's
  {stk:<merchant>:<customer>} hash tag (one cluster slot).

  KEYS[1]  the customer's counts hash, <prefix>{stk:<merchant>:<customer>}counts  (field → count)
  KEYS[2]  the dedupe marker, <prefix>{stk:<merchant>:<customer>}dedupe:<dedupeKey>
  ARGV[1]  field, <combo>:<connector>
  ARGV[2]  delta, 1 (a success) or -1 (a gateway failure)
  ARGV[3]  the hash's sliding TTL in seconds (re-armed by every success)
  ARGV[4]  most fields the hash keeps: a new field beyond it drops the lowest counts (never itself)
  ARGV[5]  the dedupe marker's TTL in seconds

  Returns  {applied (1|0), the field's count afterwards}. Not applied: the marker existed, or a
           failure found no count to subtract (a failure never creates a count; 0 removes the field).
  Errors   none of its own.
]]
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[5]) then
  return {0, tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')}
end
if tonumber(ARGV[2]) < 0 then
  local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
  if current <= 0 then
    return {0, 0}
  end
  if current <= 1 then
    redis.call('HDEL', KEYS[1], ARGV[1])
    return {1, 0}
  end
  return {1, redis.call('HINCRBY', KEYS[1], ARGV[1], -1)}
end
local count = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[3])
if count == 1 then
  local size = redis.call('HLEN', KEYS[1])
  local excess = size - tonumber(ARGV[4])
  if excess > 0 then
    local flat = redis.call('HGETALL', KEYS[1])
    local others = {}
    for index = 1, #flat, 2 do
      if flat[index] ~= ARGV[1] then
        others[#others + 1] = {flat[index], tonumber(flat[index + 1])}
      end
    end
    table.sort(others, function(a, b) return a[2] < b[2] end)
    for index = 1, math.min(excess, #others) do
      redis.call('HDEL', KEYS[1], others[index][1])
    end
  end
end
return {1, count}
