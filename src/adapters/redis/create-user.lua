--[[
  create-user: creates an operator user unless the email is taken, atomically, so two signups with
  one email can never both succeed. All user keys share the {users} hash tag (one cluster slot).

  KEYS[1]  email index, e.g. <prefix>{users}email:<email>  (value: the user id)
  KEYS[2]  user record hash, e.g. <prefix>{users}user:<userId>
  ARGV[1]  user id
  ARGV[2..] field, value, field, value, ... of the user record hash

  Returns  1 when created; 0 when the email index already existed (nothing changed)
  Errors   none of its own.
]]
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  return 0
end
redis.call('HSET', KEYS[2], unpack(ARGV, 2))
return 1
