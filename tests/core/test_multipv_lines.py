"""A MultiPV search's lines as the analysis board shows them (``core.analysis.LinesByDepth``):
those of the deepest iteration that reported every line, best score first."""

from __future__ import annotations

from doushouqi.core.analysis import Info, LinesByDepth, PlayResult, Score


def test_multipv_lines_come_from_the_deepest_complete_iteration_best_first() -> None:
    lines: LinesByDepth[str] = LinesByDepth()
    for depth, n, cp in [(4, 1, 50), (4, 2, 80), (4, 3, -20), (5, 1, 60), (5, 2, 10)]:
        lines.keep(Info(depth=depth, multipv=n, score=Score(cp=cp), pv=[f"d{depth}l{n}"]))
    lines.keep(Info(depth=6, multipv=1, score=Score(cp=70)))  # no line: not kept
    shown = lines.best(3, PlayResult("d5l1", Info(depth=5, pv=["d5l1"])))
    assert [(i["pv"], i["multipv"]) for i in shown] == [(["d4l2"], 1), (["d4l1"], 2), (["d4l3"], 3)]
    assert lines.best(2, PlayResult("d5l1"))[0]["pv"] == ["d5l1"]  # depth 5 is complete for 2


def test_multipv_lines_without_a_complete_iteration_are_the_move_played_alone() -> None:
    lines: LinesByDepth[str] = LinesByDepth()
    lines.keep(Info(depth=1, multipv=1, score=Score(cp=5), pv=["a"]))
    assert lines.best(2, PlayResult("b", Info(depth=2, pv=["c", "d"]))) == [
        Info(depth=2, pv=["b"], multipv=1)
    ]
    assert lines.best(1, PlayResult(None)) == []
