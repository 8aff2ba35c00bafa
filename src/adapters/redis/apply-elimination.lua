--[[
  apply-elimination: multiplies a gateway's elimination score by a factor, at most once per dedupe key.
  The value is decision-engine's score document:
    {"score":0.87,"timestamp":<ms>,"lastResetTimestamp":<ms>,"transactionCount":12}
  An absent (or expired) key starts at score 1.0, lastResetTimestamp = now, transactionCount 0.

  KEYS[1]  score document, e.g. <prefix>{<eliminationKey>}
  KEYS[2]  dedupe marker, e.g. <prefix>{<eliminationKey>}dedupe:<dedupeKey> (same hash slot as KEYS[1])
  ARGV[1]  factor (float): the new score is clamp(score * factor, 0, 1)
  ARGV[2]  "1" when the update counts a transaction (transactionCount + 1), else "0"
  ARGV[3]  now, epoch milliseconds (written as `timestamp`)
  ARGV[4]  TTL of the score document, milliseconds; renewed on every applied update
  ARGV[5]  dedupe TTL, seconds (integer > 0)

  Returns  { applied, document }
    applied   1 when the score was updated; 0 when the dedupe marker existed (nothing changed)
    document  the score document (JSON string) after the call, or nil when not applied and absent
  Errors   none of its own; a stored value that is not JSON raises a script error.
]]
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[5]) then
  local current = redis.call('GET', KEYS[1])
  return { 0, current }
end

local now = tonumber(ARGV[3])
local current = redis.call('GET', KEYS[1])
local doc
if current then
  doc = cjson.decode(current)
else
  doc = { score = 1.0, timestamp = now, lastResetTimestamp = now, transactionCount = 0 }
end

local score = tonumber(doc.score) * tonumber(ARGV[1])
if score > 1 then score = 1 end
if score < 0 then score = 0 end
doc.score = score
doc.timestamp = now
if ARGV[2] == '1' then doc.transactionCount = (tonumber(doc.transactionCount) or 0) + 1 end

local encoded = cjson.encode(doc)
redis.call('SET', KEYS[1], encoded, 'PX', ARGV[4])
return { 1, encoded }
