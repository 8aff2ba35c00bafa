--[[
  update-hash-if-exists: sets fields of a record hash only when the record exists, and returns the
  record as it was. Used where a plain HSET would create a partial record for an unknown id
  (switching a user's current merchant, revoking an API key).

  KEYS[1]  record hash
  ARGV     field, value, field, value, ... to set

  Returns  the record's fields before the update as a flat array (field, value, ...), or nil when the
           record does not exist (nothing changed)
  Errors   none of its own; WRONGTYPE when KEYS[1] is not a hash.
]]
local before = redis.call('HGETALL', KEYS[1])
if #before == 0 then
  return false
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return before
