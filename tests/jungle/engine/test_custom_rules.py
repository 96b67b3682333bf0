"""Custom rules through the protocol: a rule file or ``dataclasses.replace(classic, …)`` board
reaches the engine as one ``setoption`` per rule field, and the engine then plays those rules.

The client side is checked against the scripted engine's command log; the engine side by
comparing ``perft N divide`` of ``doushouqi engine`` with the rules library's legal moves on
random positions under random rule sets (a seeded generator).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import queue
import random
import subprocess
import threading
import time
from pathlib import Path

import pytest
from tests.jungle.engine.conftest import FakeCommand

from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine import (
    RULE_OPTIONS,
    Engine,
    EngineError,
    SimpleEngine,
    named_rule_set,
    rule_option_values,
)
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, Ranks, Repetition, RuleSet, load_rules_file
from doushouqi.jungle.squares import ANIMAL_LETTERS, NUM_SQUARES, may_stand

CLASSIC = BUILTIN_RULE_SETS["classic"]
#: Red's rat in the water at b4, Blue's rat on the land at b3: a capture across the water edge,
#: legal under classic rules only.
ACROSS_WATER = "6e/7/7/7/7/1R5/1r5/7/7 w"


def random_rules(rng: random.Random, name: str) -> RuleSet:
    return RuleSet(
        name=name,
        ranks=rng.choice(list(Ranks)),
        own_rat_blocks_jump=rng.random() < 0.5,
        rat_captures_across_water=rng.random() < 0.5,
        trapped_can_capture=rng.random() < 0.5,
        repetition=rng.choice(list(Repetition)),
        no_capture_draw_rounds=rng.choice([None, 3, 20, 100]),
        rule_7_3=rng.random() < 0.5,
        rule_17_5=rng.random() < 0.5,
        first_player=rng.randrange(2),
    )


def random_game(rng: random.Random, rules: RuleSet) -> Board:
    """A random game from the start; the side to move often moves its last animal again, so
    that the 7-3 / 17-5 / must-vary restrictions and repetitions come up."""
    board = Board(rules=rules)
    last: dict[int, int] = {}
    for _ in range(rng.randrange(0, 90)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        again = [move for move in moves if move.from_square == last.get(board.turn)]
        move = rng.choice(again if again and rng.random() < 0.6 else moves)
        last[board.turn] = move.to_square
        board.push(move)
    return board


def random_sparse(rng: random.Random, rules: RuleSet) -> Board:
    """A few animals on random squares (rats in the water, animals in traps …)."""
    while True:
        rows = [["" for _ in range(7)] for _ in range(9)]
        for color in (0, 1):
            for animal in rng.sample(range(1, 9), rng.randrange(1, 6)):
                code = animal + 8 * color
                squares = [
                    s for s in range(NUM_SQUARES) if may_stand(code, s) and not rows[s // 7][s % 7]
                ]
                square = rng.choice(squares)
                letter = ANIMAL_LETTERS[animal]
                rows[square // 7][square % 7] = letter if color == 0 else letter.lower()
        fen = "/".join(_fen_row(row) for row in reversed(rows))
        board = Board(f"{fen} {rng.choice('wb')}", rules)
        if not board.is_game_over():
            return board


def _fen_row(row: list[str]) -> str:
    text, empty = "", 0
    for cell in row:
        if not cell:
            empty += 1
            continue
        text += (str(empty) if empty else "") + cell
        empty = 0
    return text + (str(empty) if empty else "")


def library_divide(board: Board) -> dict[str, int]:
    """Legal replies after each legal move: what ``perft 2 divide`` counts."""
    counts = {}
    for move in list(board.legal_moves):
        board.push(move)
        counts[str(move)] = 0 if board.is_game_over_on_board() else len(list(board.legal_moves))
        board.pop()
    return counts


# ------------------------------------------------------------------ what the client sends


def _rule_lines(log: Path) -> list[str]:
    return [
        line
        for line in log.read_text().splitlines()
        if line.startswith("setoption") and any(word in line for word in ("Rules", *RULE_OPTIONS))
    ]


def _play(command: list[str], *boards: Board) -> None:
    async def main() -> None:
        async with Engine(command) as engine:
            for board in boards:
                await engine.play(board, Limit(depth=1))

    asyncio.run(main())


def test_named_rule_sets_and_custom_ones() -> None:
    assert named_rule_set(CLASSIC) == "classic"
    assert named_rule_set(dataclasses.replace(CLASSIC, name="mine")) == "classic"
    assert named_rule_set(RuleSet(name="house")) == "wango"
    assert named_rule_set(dataclasses.replace(CLASSIC, rule_7_3=False)) is None
    assert named_rule_set(dataclasses.replace(CLASSIC, wolf_name="fox")) == "classic"
    assert rule_option_values(RuleSet(first_player=1))["first_player"] == "blue"


def test_custom_rules_are_sent_field_by_field(fake_command: FakeCommand, tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"
    rule_file = tmp_path / "house.toml"
    rule_file.write_text('parent = "classic"\nrat_captures_across_water = false\n')
    replaced = dataclasses.replace(CLASSIC, rule_7_3=False)  # still named "classic"
    _play(
        fake_command("--rule-options", "--log", str(log)),
        Board(rules=load_rules_file(rule_file)),
        Board(rules=load_rules_file(rule_file)),  # unchanged: nothing sent again
        Board(rules=replaced),
        Board(rules="classic"),
    )
    lines = _rule_lines(log)
    custom = rule_option_values(load_rules_file(rule_file))
    first = [
        "setoption name Rules value wango",
        *(f"setoption name {field} value {custom[field]}" for field in RULE_OPTIONS),
    ]
    assert "setoption name rat_captures_across_water value false" in first
    assert "setoption name rule_7_3 value true" in first
    second = [
        "setoption name Rules value wango",
        *(
            f"setoption name {field} value {text}"
            for field, text in rule_option_values(replaced).items()
        ),
    ]
    assert lines == [*first, *second, "setoption name Rules value classic"]


def test_rules_the_engine_cannot_take(
    fake_command: FakeCommand, caplog: pytest.LogCaptureFixture
) -> None:
    replaced = dataclasses.replace(CLASSIC, rule_7_3=False)
    with pytest.raises(EngineError, match="no option own_rat_blocks_jump, rat_captures_across"):
        _play(fake_command(), Board(rules=replaced))
    # No rule option at all: assumed to play WANGO rules, with a warning for others.
    with caplog.at_level(logging.WARNING, logger="doushouqi.jungle.engine"):
        _play(fake_command("--no-rules-option"), Board(rules=replaced))
    assert "has no rule options" in caplog.text


def test_rule_options_are_not_configured_by_hand(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command("--rule-options")) as engine:
            with pytest.raises(EngineError, match="rule_7_3 option is set from the board"):
                await engine.configure({"rule_7_3": True})

    asyncio.run(main())


# -------------------------------------------------------------- what our engine plays


class _Protocol:
    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def ask(self, commands: list[str], done: str, timeout: float = 30.0) -> list[str]:
        """Send ``commands``; the lines up to one that starts with ``done`` (``""``: up to a
        line that is a number, as ``perft`` ends)."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(command + "\n" for command in commands))
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            seen.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            if seen[-1].startswith(done) and (done or seen[-1].isdigit()):
                return seen

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
        try:
            self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def test_engine_and_library_agree_on_random_custom_rules(real_engine_command: list[str]) -> None:
    rng = random.Random(20261201)
    engine = _Protocol(real_engine_command)
    try:
        engine.ask(["isready"], "readyok", timeout=300)
        for index in range(12):
            rules = random_rules(rng, f"random-{index}")
            options = [
                f"setoption name {field} value {text}"
                for field, text in rule_option_values(rules).items()
            ]
            answer = engine.ask([*options, "isready"], "readyok")
            assert not [line for line in answer if "error" in line], answer
            boards = [random_game(rng, rules) for _ in range(3)]
            boards += [random_sparse(rng, rules) for _ in range(3)]
            for board in boards:
                moves = " ".join(str(move) for move in board.move_stack)
                position = f"position fen {board.starting_fen}" + (f" moves {moves}" * bool(moves))
                lines = engine.ask([position, "perft 2 divide"], "")
                divide = dict(line.split(": ") for line in lines[:-1])
                expected = library_divide(board)
                assert {move: int(count) for move, count in divide.items()} == expected, (
                    f"{rules} {board.starting_fen} moves {moves}"
                )
                assert int(lines[-1]) == sum(expected.values())
    finally:
        engine.close()


def test_real_engine_plays_custom_rules(real_engine_command: list[str], tmp_path: Path) -> None:
    # Classic rules without the capture across the water edge: an engine told "classic" would
    # take the rat (the client then raises EngineMoveError for the illegal move).
    rule_file = tmp_path / "dry.toml"
    rule_file.write_text('parent = "classic"\nrat_captures_across_water = false\n')
    with SimpleEngine.popen(real_engine_command, ready_timeout=300) as engine:
        move = engine.play(Board(ACROSS_WATER, "classic"), Limit(depth=3)).move
        assert str(move) == "b4b3"
        dry = dataclasses.replace(CLASSIC, rat_captures_across_water=False)  # named "classic"
        for rules in (load_rules_file(rule_file), dry):
            board = Board(ACROSS_WATER, rules)
            move = engine.play(board, Limit(depth=3)).move
            assert move is not None and str(move) != "b4b3"
