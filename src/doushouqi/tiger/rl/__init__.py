"""老虎棋 (Tiger chess) for reinforcement learning: environments on the Tiger's rules library.

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo). Importing this package registers the
Gymnasium environment as ``doushouqi/Tiger-v0``:

>>> import gymnasium
>>> from doushouqi.tiger.rl import ENV_ID
>>> ENV_ID
'doushouqi/Tiger-v0'
>>> env = gymnasium.make(ENV_ID, rules="laohuqi", opponent="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(env.action_space.n), int(info["action_mask"].sum())
((16, 11, 9), 577, 4)

- :mod:`.encoding` — the actions (step and jump segments, *stop* for multi-jump chains) and
  the observation planes (every plane documented);
- :mod:`.action_board` — :class:`ActionBoard`: a board played one action at a time, jump
  chains included; what the three environments share;
- :mod:`.env` — :class:`TigerEnv`: self-play or against an opponent, rewards, masks;
- :mod:`.pettingzoo_env` — the game as a PettingZoo AEC environment (agents "tiger", "men");
- :mod:`.openspiel_game` — the game for OpenSpiel, ``python_laohuqi`` (``openspiel`` extra);
- :mod:`.common` — the agents' names, the default move limit, outcomes as data, the text.

The last two environments are imported only when you import them. See docs/rl.md.
"""

from __future__ import annotations

import gymnasium

from doushouqi.tiger.rl.action_board import ActionBoard, IllegalActionError
from doushouqi.tiger.rl.encoding import (
    MAX_ACTIONS,
    NUM_PLANES,
    OBSERVATION_SHAPE,
    PLANE_NAMES,
    STOP_ACTION,
    action_name,
    action_to_pair,
    encode_observation,
    num_actions,
    pair_to_action,
)
from doushouqi.tiger.rl.env import Opponent, TigerEnv

__all__ = [
    "ENV_ID",
    "MAX_ACTIONS",
    "NUM_PLANES",
    "OBSERVATION_SHAPE",
    "PLANE_NAMES",
    "STOP_ACTION",
    "ActionBoard",
    "IllegalActionError",
    "Opponent",
    "TigerEnv",
    "action_name",
    "action_to_pair",
    "encode_observation",
    "num_actions",
    "pair_to_action",
]

#: The id under which importing this package registers the environment with gymnasium.
ENV_ID = "doushouqi/Tiger-v0"

# Registering twice (a module reload) would only make gymnasium warn about overriding it.
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="doushouqi.tiger.rl.env:TigerEnv")
