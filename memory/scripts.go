package memory

import "github.com/redis/go-redis/v9"

// The Lua scripts below touch only the keys of one session (one hash tag),
// so they run unchanged on Redis Cluster. Every session script receives the
// session's keys in this order.
const (
	keyMeta = iota
	keyHistory
	keyCache
	keyHits
	keyExpiry
	numSessionKeys
)

// createSrc creates a session's meta hash unless it exists and drops any
// leftovers of an earlier session with the same id.
// KEYS: session keys. ARGV: ttl_ms, field, value, field, value, ...
const createSrc = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`

// beginSrc advances the exchange counter, drops expired cache entries,
// refreshes every TTL and returns what a turn needs, in one round trip.
// KEYS: session keys. ARGV: ttl_ms, history_kept (the window and chainMax
// more messages), known (the SHA-1, hex, of the history's last element as
// the caller knows the list; empty: none).
// Returns nil for an unknown session, else {meta, history, cache, hits,
// unchanged}: when the list's last element is the known one, history is
// empty and unchanged 1 (the caller has the list), else 0.
const beginSrc = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local known = ARGV[3]
` + beginBody

// beginBody is the part of beginSrc that runs once the session is known to exist.
const beginBody = `
local ex = redis.call('HINCRBY', KEYS[1], 'exchange', 1)
local bound = '(' .. ex
local dead = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', bound)
for i = 1, #dead, 500 do
  local chunk = {}
  for j = i, math.min(i + 499, #dead) do chunk[#chunk + 1] = dead[j] end
  redis.call('HDEL', KEYS[3], unpack(chunk))
  redis.call('HDEL', KEYS[4], unpack(chunk))
end
if #dead > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', bound) end
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
local unchanged = 0
if known and known ~= '' then
  local last = redis.call('LINDEX', KEYS[2], -1)
  if last and redis.sha1hex(last) == known then unchanged = 1 end
end
local hist = {}
if unchanged == 0 then hist = redis.call('LRANGE', KEYS[2], -tonumber(ARGV[2]), -1) end
return {
  redis.call('HGETALL', KEYS[1]),
  hist,
  redis.call('HGETALL', KEYS[3]),
  redis.call('HGETALL', KEYS[4]),
  unchanged,
}
`

// lockBeginSrc takes the session's turn lock and, when it got it, does what
// beginSrc does (ARGV[5] = "1"), or only reads the meta and the stored cache
// without advancing anything (ARGV[5] = "0", for screen events), so an
// uncontended turn or event starts in one round trip.
// With a quota (limit > 0) it first counts the request in the session's
// sliding log of turn times (µs, from the Redis clock so instances agree),
// or refuses it, changing nothing, when the window already holds limit.
// KEYS: session keys, the lock, the quota log. ARGV: ttl_ms, history_max,
// owner, lock_ttl_ms, advance, known, limit (0: not counted), window_ms,
// unique member suffix. Returns nil for an unknown session, minus the µs to
// wait when over the quota, 0 when the lock is held by another turn, else
// beginSrc's answer (history empty when not advancing).
const lockBeginSrc = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local known = ARGV[6]
local limit = tonumber(ARGV[7])
if limit > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local window = tonumber(ARGV[8]) * 1000
  redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', now - window)
  if redis.call('ZCARD', KEYS[7]) >= limit then
    local oldest = redis.call('ZRANGE', KEYS[7], 0, 0, 'WITHSCORES')
    local retry = window
    if oldest[2] then retry = tonumber(oldest[2]) + window - now end
    return -math.max(retry, 1)
  end
  redis.call('ZADD', KEYS[7], now, t[1] .. '.' .. t[2] .. '-' .. ARGV[9])
  redis.call('PEXPIRE', KEYS[7], ARGV[8])
end
if not redis.call('SET', KEYS[6], ARGV[3], 'NX', 'PX', ARGV[4]) then return 0 end
if ARGV[5] == '0' then
  return {redis.call('HGETALL', KEYS[1]), {}, redis.call('HGETALL', KEYS[3]), redis.call('HGETALL', KEYS[4])}
end
` + beginBody

// finishSrc appends messages (trimmed to the window), stores cache entries,
// counts hits on entries that still exist, records tool versions assigned
// to the session (meta fields "version:<tool>"), records the exchange the
// messages answered (when one is given), refreshes every TTL and, last,
// releases the turn's lock (when its owner is given): a turn's write is one
// script, so the exchange is recorded exactly when its messages are.
// Messages come as pairs (after, whole) when the write follows a chain
// (sum is the SHA-1 of the list's last element it saw, see chain): the
// "after" forms when the list's last element is still that one, else the
// whole ones; with sum empty, one form each.
// KEYS: session keys, the exchanges hash, the lock.
// ARGV: ttl_ms, history_kept, owner (empty: no lock to release), exchange
// (0: none), exchange_json, exchanges_kept, n_msgs, [sum, msg... | (after,
// whole)...] (when n_msgs > 0), n_puts, (key, json, expires_after,
// hits)..., n_hits, key..., n_versions, (tool, version)...
// Returns nil for an unknown session (the lock released all the same),
// else {appended, summary_through, released}: appended is 2 when the
// "after" forms were appended (the list was as the caller saw it), else 1;
// summary_through is the stored summary's last exchange (0: none);
// released is 1 when the lock was the owner's and is released.
const finishSrc = releaseLua + recordExchangeLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then
  release(KEYS[7], ARGV[3])
  return false
end
local res = 1
local i = 7
local n = tonumber(ARGV[i]); i = i + 1
if n > 0 then
  local sum = ARGV[i]; i = i + 1
  local pick, step = 0, 1
  if sum ~= '' then
    local last = redis.call('LINDEX', KEYS[2], -1)
    pick, step = 1, 2
    if last and redis.sha1hex(last) == sum then pick, res = 0, 2 end
  end
  for k = 1, n, 500 do
    local vals = {}
    for _ = k, math.min(k + 499, n) do vals[#vals + 1] = ARGV[i + pick]; i = i + step end
    redis.call('RPUSH', KEYS[2], unpack(vals))
  end
  redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local k = ARGV[i]
  redis.call('HSET', KEYS[3], k, ARGV[i + 1])
  redis.call('ZADD', KEYS[5], ARGV[i + 2], k)
  redis.call('HSET', KEYS[4], k, ARGV[i + 3])
  i = i + 4
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  if redis.call('HEXISTS', KEYS[3], ARGV[i]) == 1 then
    redis.call('HINCRBY', KEYS[4], ARGV[i], 1)
  end
  i = i + 1
end
n = tonumber(ARGV[i] or '0'); i = i + 1
for _ = 1, n do
  redis.call('HSET', KEYS[1], 'version:' .. ARGV[i], ARGV[i + 1])
  i = i + 2
end
if tonumber(ARGV[4]) > 0 then recordExchange(KEYS[6], ARGV[4], ARGV[5], ARGV[6], ARGV[1]) end
for j = 1, 5 do redis.call('PEXPIRE', KEYS[j], ARGV[1]) end
local through = tonumber(redis.call('HGET', KEYS[1], 'summary_through') or '0') or 0
return {res, through, release(KEYS[7], ARGV[3])}
`

// screenSrc sets (ARGV[1] non-empty) or clears a session's screen and,
// when ARGV[2] is non-empty, records it as the order of the last screen
// event. KEYS: session keys. Returns nil for an unknown session.
const screenSrc = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if ARGV[1] == '' then
  redis.call('HDEL', KEYS[1], 'screen')
else
  redis.call('HSET', KEYS[1], 'screen', ARGV[1])
end
if ARGV[2] and ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'screen_event', ARGV[2])
end
return 1
`

// releaseLua defines release(key, owner), which deletes the lock at key
// only for its owner (none when owner is empty) and returns 1 when it did,
// else 0. unlockSrc and finishSrc start with it.
const releaseLua = `
local function release(key, owner)
  if owner ~= '' and redis.call('GET', key) == owner then return redis.call('DEL', key) end
  return 0
end
`

// unlockSrc deletes a lock only for its owner. KEYS: lock. ARGV: owner.
const unlockSrc = releaseLua + `
return release(KEYS[1], ARGV[1])
`

// extendSrc renews a lock's TTL only for its owner. KEYS: lock. ARGV: owner, ttl_ms.
const extendSrc = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`

// scripts holds a Store's compiled scripts (each remembers its SHA1).
// summarySrc stores a session's rolling summary unless the stored one
// covers as much or more. KEYS: the meta key. ARGV: through, summary JSON.
// Returns -1 for an unknown session, 0 when not newer, 1 when stored.
const summarySrc = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local cur = tonumber(redis.call('HGET', KEYS[1], 'summary_through') or '0') or 0
if cur >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'summary_through', ARGV[1], 'summary', ARGV[2])
return 1
`

type scripts struct {
	create, begin, lockBegin, finish, screen, unlock, extend, summary, claim *redis.Script
}

func newScripts() scripts {
	return scripts{
		create:    redis.NewScript(createSrc),
		begin:     redis.NewScript(beginSrc),
		lockBegin: redis.NewScript(lockBeginSrc),
		finish:    redis.NewScript(finishSrc),
		screen:    redis.NewScript(screenSrc),
		unlock:    redis.NewScript(unlockSrc),
		extend:    redis.NewScript(extendSrc),
		summary:   redis.NewScript(summarySrc),
		claim:     redis.NewScript(claimSrc),
	}
}
