"""老虎棋 (Tiger chess): the rules library (standard library only) and the platform game.

The rules library: :mod:`~doushouqi.tiger.points` (the 87 points, lines, jumps),
:mod:`~doushouqi.tiger.rules` (options and named rule sets), :mod:`~doushouqi.tiger.moves`
(moves and move strings), :mod:`~doushouqi.tiger.fen` (position strings),
:mod:`~doushouqi.tiger.board` (:class:`~doushouqi.tiger.board.Board`: legal moves, push/pop,
outcome), :mod:`~doushouqi.tiger.san` (short notation in three scripts),
:mod:`~doushouqi.tiger.svg` (pictures), :mod:`~doushouqi.tiger.record` (game records) and
:mod:`~doushouqi.tiger.terms` (words). :mod:`~doushouqi.tiger.game` implements
:class:`doushouqi.core.game.Game` over them. The rules: docs/tiger.md.
"""
