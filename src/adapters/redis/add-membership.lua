--[[
  add-membership: adds a user to a merchant unless the user already belongs to it (in any role),
  writing the user's memberships hash and the merchant's members hash together. Both keys share
  the {users} hash tag (one cluster slot).

  KEYS[1]  the user's memberships hash, <prefix>{users}memberships:<userId>  (merchant id → role)
  KEYS[2]  the merchant's members hash, <prefix>{users}members:<merchantId>  (user id → role)
  ARGV[1]  user id
  ARGV[2]  merchant id
  ARGV[3]  role

  Returns  1 when added; 0 when the user was already a member (nothing changed)
  Errors   none of its own.
]]
if redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
