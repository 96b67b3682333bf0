"""What the games' reinforcement-learning wrappers share, game-free: the parts of their
Gymnasium environments (:mod:`.gym_env`) and PettingZoo environments (:mod:`.pettingzoo_env`),
both needing the ``rl`` extra (numpy, Gymnasium, PettingZoo), and of their OpenSpiel games
(:mod:`.openspiel_game`, the ``openspiel`` extra) that do not depend on the game, and the check
of the move limit they all take (:mod:`.move_limit`, standard library only).

It imports no game: each game's ``rl`` package subclasses it with its board, its action
encoding and its agents' names.
"""
