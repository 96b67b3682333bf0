"""What the games' reinforcement-learning wrappers share, game-free: the parts of their
PettingZoo environments that do not depend on the game (:mod:`.pettingzoo_env`).

It needs the ``rl`` extra (numpy, Gymnasium, PettingZoo) and imports no game: each game's
``rl`` package subclasses it with its board, its action encoding and its agents' names.
"""
