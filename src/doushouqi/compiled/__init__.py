"""Game-free support for the games' compiled engines (numba): the on-disk cache kept in step
with the sources (:mod:`.cache`), progress while code compiles (:mod:`.progress`), the engines'
shared protocol loop (:mod:`.protocol_loop`), the size of their transposition tables
(:mod:`.ttable`) and the numba options of their hot code (:mod:`.jit`: no reference counting).

Each game's engine (``doushouqi.<game>.ai``) uses these; nothing here knows a game.
"""
