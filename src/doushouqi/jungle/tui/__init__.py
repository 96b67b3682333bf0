"""The terminal game, ``doushouqi play``, drawn with ``rich``.

- :mod:`.session` — the game loop's logic, free of input and output: a :class:`~.session.Session`
  takes the lines a player types and answers with notes to show; the computer opponent is any
  object with ``choose_move(board) -> Move``.
- :mod:`.render` — the board, the side panel and notes as rich renderables (wide and compact).
- :mod:`.engine` — the production opponent: a thin adapter over ``doushouqi.jungle.ai.best_move``.
- :mod:`.play` — the command: reads lines from the terminal (or a pipe) and draws the game.
- :mod:`.options` — the command's
options, for ``doushouqi.cli.main`` (no rich needed to build them).
- :mod:`.text` — the interface's own words in English and Chinese (game terms come from
  :mod:`doushouqi.jungle.notation`).

Importing this package (or :mod:`.session`, :mod:`.options`) does not import ``rich``;
:mod:`.render` and :mod:`.play` do.
"""

from __future__ import annotations
