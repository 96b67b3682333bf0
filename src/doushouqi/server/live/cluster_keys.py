"""What the cluster keeps in Redis, by name: the keys and channels every node reads and writes,
and the Lua scripts it runs on them (:mod:`.cluster` says what each is for). Nodes of the version
before and after a change share these during a rolling upgrade, so they change with care.
"""

from __future__ import annotations

__all__ = [
    "ACCOUNTS_CHANNEL",
    "AI_GAMES",
    "BEATS",
    "HOLD",
    "OWNERS",
    "PRESENCE_BEAT",
    "RELEASE",
    "game_channel",
    "lease_key",
    "node_channel",
    "presence_key",
]


def lease_key(game_id: str) -> str:
    return f"dsq:lease:{game_id}"


def game_channel(game_id: str) -> str:
    return f"dsq:game:{game_id}"


def node_channel(node: str) -> str:
    return f"dsq:node:{node}"


#: Every node's bot event streams hear of their accounts' games here (from any owner), its site
#: sockets of their players' notifications, and every node of the sessions ended elsewhere.
ACCOUNTS_CHANNEL = "dsq:accounts"


def presence_key(game_id: str) -> str:
    return f"dsq:presence:{game_id}"


OWNERS = "dsq:owners"  # game → the node that last held its lease
BEATS = "dsq:beats"  # node → its last heartbeat (epoch seconds)
AI_GAMES = "dsq:ai_games"  # node → {"n": its games against the computer in play, "t": when}


# Keep our leases: extend each while it is ours, or take it again when nobody holds it (Redis
# lost it: restarted without persistence, or flushed) and record us as the game's owner again;
# one answer a game, 0 when another node holds it now. KEYS[1] the owners' hash, then the
# leases; ARGV[1] node, ARGV[2] milliseconds, then the games (in the leases' order). One call
# for all of a node's games: a command each cost the lease keeper more in redis-py's packing
# of them than Redis's work.
HOLD = """
local held = {}
for i = 2, #KEYS do
    local holder = redis.call('get', KEYS[i])
    if holder == ARGV[1] then
        held[i - 1] = redis.call('pexpire', KEYS[i], ARGV[2])
    elseif holder == false then
        redis.call('set', KEYS[i], ARGV[1], 'px', ARGV[2])
        redis.call('hset', KEYS[1], ARGV[i + 1], ARGV[1])
        held[i - 1] = 1
    else
        held[i - 1] = 0
    end
end
return held
"""
# A beat's presence: write this node's records of the games it follows (KEYS[1..ARGV[2]],
# the records ARGV[3..]) and read the records of the games it owns (the other KEYS), one
# answer (field, value, ...) each. ARGV[1] node. One call, as for the leases.
PRESENCE_BEAT = """
local written = tonumber(ARGV[2])
for i = 1, written do
    redis.call('hset', KEYS[i], ARGV[1], ARGV[i + 2])
end
local records = {}
for i = written + 1, #KEYS do
    records[i - written] = redis.call('hgetall', KEYS[i])
end
return records
"""
# Give a lease up only while it is ours.
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""
