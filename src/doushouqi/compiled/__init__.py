"""Game-free support for the games' compiled engines (numba): the on-disk cache kept in step
with the sources (:mod:`.cache`) and progress while code compiles (:mod:`.progress`).

Each game's engine (``doushouqi.<game>.ai``) uses these; nothing here knows a game.
"""
