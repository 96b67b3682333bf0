"""Jungle (斗兽棋) for reinforcement learning: a Gymnasium environment on the rules library.

Needs the ``rl`` extra (numpy, gymnasium); an engine opponent also needs the ``ai`` extra.
Importing this package registers the environment with gymnasium as ``doushouqi/Jungle-v0``:

>>> import gymnasium
>>> from doushouqi.jungle.rl import ENV_ID
>>> ENV_ID
'doushouqi/Jungle-v0'
>>> env = gymnasium.make(ENV_ID, rules="classic", opponent="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((31, 9, 7), 24)

- :mod:`.encoding` — the observation planes and the action encoding (every plane documented);
- :mod:`.env` — :class:`JungleEnv`: self-play or against an opponent, rewards, masks;
- :mod:`.pettingzoo_env` — the same game as a PettingZoo AEC environment (agents "red", "blue");
- :mod:`.openspiel_game` — the same game for OpenSpiel, ``python_jungle`` (``openspiel`` extra);
- :mod:`.common` — what they share: the default move limit, outcomes as plain data, the text.

The last three are imported only when you import them.

See docs/rl.md for a guide.
"""

from __future__ import annotations

import gymnasium

from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    NUM_PLANES,
    OBSERVATION_SHAPE,
    PLANE_NAMES,
    action_to_move,
    encode_observation,
    legal_action_mask,
    move_to_action,
    view_square,
)
from doushouqi.jungle.rl.env import IllegalActionError, JungleEnv, Opponent

__all__ = [
    "ENV_ID",
    "NUM_ACTIONS",
    "NUM_PLANES",
    "OBSERVATION_SHAPE",
    "PLANE_NAMES",
    "IllegalActionError",
    "JungleEnv",
    "Opponent",
    "action_to_move",
    "encode_observation",
    "legal_action_mask",
    "move_to_action",
    "view_square",
]

#: The id under which importing this package registers the environment with gymnasium.
ENV_ID = "doushouqi/Jungle-v0"

# Registering twice (a module reload) would only make gymnasium warn about overriding it.
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="doushouqi.jungle.rl.env:JungleEnv")
