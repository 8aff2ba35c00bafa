--[[
  record-outcome: pushes one outcome onto a success-rate window, at most once per dedupe key.
  The window is the decision-engine SR v3 queue: a LIST of "1"/"0", newest at the head, the newest
  B entries being "the last B outcomes". Atomic, so concurrent feedback never loses an outcome.

  KEYS[1]  window list, e.g. <prefix>{<window>_}queue
  KEYS[2]  dedupe marker, e.g. <prefix>{<window>_}dedupe:<dedupeKey> (same hash slot as KEYS[1])
  ARGV[1]  outcome: "1" success, "0" failure
  ARGV[2]  bucket size B (integer > 0)
  ARGV[3]  dedupe TTL, seconds (integer > 0)
  ARGV[4]  window TTL, seconds (integer > 0), renewed on every applied outcome

  Returns  { applied, successes, length }
    applied    1 when the outcome was pushed; 0 when the dedupe marker existed (nothing changed)
    successes  count of "1" among the newest B entries after the call
    length     number of entries among the newest B (0 when the window does not exist)
  Errors   none of its own; WRONGTYPE when KEYS[1] holds something other than a list.
]]
local bucket = tonumber(ARGV[2])

local function summary()
  local entries = redis.call('LRANGE', KEYS[1], 0, bucket - 1)
  local successes = 0
  for i = 1, #entries do
    if entries[i] == '1' then successes = successes + 1 end
  end
  return successes, #entries
end

if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then
  local successes, length = summary()
  return { 0, successes, length }
end

if redis.call('EXISTS', KEYS[1]) == 0 then
  -- Optimistic start (decision-engine createKeysIfNotExist): a new window holds B successes.
  -- Pushed in chunks of 1000 so a large B never exceeds Lua's unpack() stack limit.
  local seed = {}
  for _ = 1, bucket do
    seed[#seed + 1] = '1'
    if #seed == 1000 then
      redis.call('RPUSH', KEYS[1], unpack(seed))
      seed = {}
    end
  end
  if #seed > 0 then redis.call('RPUSH', KEYS[1], unpack(seed)) end
end

redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, bucket - 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
local successes, length = summary()
return { 1, successes, length }
