"""The Tiger's Gymnasium environment (doushouqi.tiger.rl.env): gymnasium's own checker,
episodes against the library's outcome of the same moves, opponents, jump chains, illegal
actions and rewards."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from tests.tiger.helpers import place
from tests.tiger.rl.games import NAMED, RULE_SETS, rule_id, variant

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl import (
    ENV_ID,
    OBSERVATION_SHAPE,
    STOP_ACTION,
    IllegalActionError,
    TigerEnv,
    encode_observation,
)
from doushouqi.tiger.rl.common import DEFAULT_MAX_PLIES, outcome_info
from doushouqi.tiger.rules import MEN_SIDE, TIGER_SIDE

#: A position where the men (to move) lose at once if the tiger may answer: tiger e5, men e6 f7
#: g6 f5 and four more; e5e7g7g5e5 takes four, leaving 3 < 4.
CHAIN_FEN = place("e5", "e6 f7 g6 f5 a1 b1 c1", "t")


def play_masked_random(env: gymnasium.Env, seed: int) -> tuple[list[tuple], dict]:
    """One episode of uniformly random legal actions: the (reward, term, trunc, info) of each
    step, and the reset info."""
    rng = np.random.default_rng(seed)
    _, reset_info = env.reset(seed=seed)
    info = reset_info
    steps = []
    while True:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, reward, terminated, truncated, info = env.step(action)
        steps.append((reward, terminated, truncated, info))
        if terminated or truncated:
            return steps, reset_info


# --- gymnasium API ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "laohuqi"},
        {"rules": "laohuqi-18", "render_mode": "ansi"},
        {"rules": "laohuqi-south", "opponent": "random", "agent_side": "random"},
        {"rules": "laohuqi-strict", "opponent": "random", "agent_side": "men", "max_plies": 50},
        {"rules": variant(multi_jump=True, diagonals="all"), "opponent": "random"},
    ],
    ids=lambda kwargs: ",".join(f"{k}={rule_id(v)}" for k, v in kwargs.items()),
)
def test_check_env_passes_without_warnings(kwargs) -> None:
    env = gymnasium.make(ENV_ID, **kwargs).unwrapped  # made by id: the checker uses its spec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium's checker reports problems as warnings too
        check_env(env)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make(ENV_ID, rules="laohuqi-18")
    assert isinstance(env.unwrapped, TigerEnv) and env.unwrapped.rules.name == "laohuqi-18"
    assert env.observation_space.shape == OBSERVATION_SHAPE and env.action_space.n == 577
    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and obs in env.observation_space
    assert info["action_mask"].sum() == 4 and info["chain"] is None and info["turn"] == 0
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    assert gymnasium.make(ENV_ID, rules=variant(diagonals="all")).action_space.n == 1057


def test_importing_rl_loads_neither_the_other_game_nor_an_engine() -> None:
    code = (
        "import sys, doushouqi.tiger.rl, doushouqi.tiger.rl.pettingzoo_env;"
        "assert 'numba' not in sys.modules, 'numba loaded';"
        "assert 'doushouqi.jungle.rl' not in sys.modules, 'Jungle rl loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- episodes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_id)
def test_self_play_episodes_end_with_the_library_outcome(rules) -> None:
    env = TigerEnv(rules, max_plies=None)  # no move limit: every game ends on the board
    for seed in range(2):
        steps, reset_info = play_masked_random(env, seed)
        assert reset_info["turn"] == env.rules.first
        for reward, terminated, truncated, info in steps[:-1]:
            assert (reward, terminated, truncated) == (0.0, False, False)
            assert info["action_mask"].any()
        reward, terminated, truncated, info = steps[-1]
        assert terminated and not truncated and not info["action_mask"].any()
        # The same moves played on the library's own board end the same way.
        replay = Board(rules=env.rules)
        for move in env.board.move_stack:
            assert replay.is_legal(move)
            replay.push(move)
        assert replay.outcome() is not None
        assert info["outcome"] == outcome_info(replay.outcome())
        tiger, men = info["reward_by_seat"]
        assert tiger == -men
        mover = 1 - info["turn"]  # the side whose move ended the game
        assert reward == info["reward_by_seat"][mover]
        if info["winner"] is not None:
            assert info["winner"] == mover and reward == 1.0


def test_a_jump_chain_keeps_the_turn_until_it_ends() -> None:
    env = TigerEnv(variant(multi_jump=True), illegal_action="raise")
    _, info = env.reset(options={"fen": CHAIN_FEN})
    actions = env.move_to_actions("e5e7g7g5e5")
    assert len(actions) == 4
    for action in actions[:-1]:
        _, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert info["turn"] == TIGER_SIDE and info["ply"] == 0 and info["chain"]
        assert info["action_mask"][STOP_ACTION]
    assert info["chain"] == "e5e7g7g5" and env.chain == "e5e7g7g5"
    assert "jump chain open: e5e7g7g5" in env.ansi()
    _, reward, terminated, _, info = env.step(actions[-1])
    assert (reward, terminated) == (1.0, True)
    assert info["outcome"] == {"termination": "men_captured", "winner": "tiger", "result": "1-0"}
    assert env.board.move_stack == [Move.from_str("e5e7g7g5e5")]


def test_stop_ends_a_chain_and_the_opponent_answers() -> None:
    env = TigerEnv(variant(multi_jump=True), opponent="random", agent_side="tiger")
    _, info = env.reset(seed=0, options={"fen": CHAIN_FEN})
    _, _, _, _, info = env.step(env.move_to_actions("e5e7")[0])
    assert info["chain"] == "e5e7" and info["opponent_move"] is None  # the opponent waits
    _, reward, terminated, _, info = env.step(STOP_ACTION)
    assert (reward, terminated, info["chain"]) == (0.0, False, None)
    assert env.board.move_stack[0] == Move.from_str("e5e7") and info["opponent_move"]
    assert info["turn"] == TIGER_SIDE and info["ply"] == 2


@pytest.mark.parametrize("agent_side", ["tiger", "men"])
def test_random_opponent_episodes(agent_side) -> None:
    env = TigerEnv("laohuqi-strict", opponent="random", agent_side=agent_side)
    seat = TIGER_SIDE if agent_side == "tiger" else MEN_SIDE
    for seed in range(2):
        steps, reset_info = play_masked_random(env, seed)
        assert env.agent_side == seat and reset_info["turn"] == seat
        assert reset_info["ply"] == (1 if seat == MEN_SIDE else 0)  # the tiger side went first
        for _, _, _, info in steps[:-1]:
            assert info["turn"] == seat and info["opponent_move"] is not None
        reward, terminated, truncated, info = steps[-1]
        assert terminated and not truncated
        assert reward == info["reward_by_seat"][seat] in (-1.0, 0.0, 1.0)


def test_random_opponent_follows_the_reset_seed() -> None:
    def opponent_moves(seed: int) -> list[str | None]:
        env = TigerEnv("laohuqi", opponent="random", agent_side="men")
        _, info = env.reset(seed=seed)
        moves = [info["opponent_move"]]
        rng = np.random.default_rng(0)  # the same agent each time: only the seed differs
        for _ in range(10):
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, _, info = env.step(action)
            moves.append(info["opponent_move"])
            if terminated:
                break
        return moves

    assert opponent_moves(7) == opponent_moves(7)
    assert len({tuple(opponent_moves(seed)) for seed in range(5)}) > 1


def test_callable_opponent_gets_a_copy_and_must_play_legally() -> None:
    def vandal(board: Board) -> Move:
        move = next(iter(board.legal_moves))
        board.push(move)  # mangles its own copy only
        return move

    env = TigerEnv(opponent=vandal, agent_side="men")
    _, info = env.reset()
    assert env.board.ply() == 1 and info["opponent_move"] == "e10e9"
    env = TigerEnv(opponent=lambda board: Move.from_str("e10e8"), agent_side="men")
    with pytest.raises(RuntimeError, match="the opponent played"):
        env.reset()


def test_reset_where_the_opponent_first_move_ends_the_game() -> None:
    def take_all(board: Board) -> Move:
        return max(board.legal_moves, key=lambda move: len(move.path))

    env = TigerEnv(variant(multi_jump=True), opponent=take_all, agent_side="men")
    obs, info = env.reset(options={"fen": CHAIN_FEN})
    assert info["opponent_move"] in ("e5e7g7g5e5", "e5g5g7e7e5")  # the loop, either way
    assert info["outcome"]["winner"] == "tiger"
    assert not info["action_mask"].any() and obs.shape == OBSERVATION_SHAPE
    _, reward, terminated, truncated, info = env.step(0)  # any action: nothing is played
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["rewards"] == {"tiger": 1.0, "men": -1.0}
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_max_plies_truncates_on_whole_moves() -> None:
    env = TigerEnv("laohuqi", max_plies=10)
    steps, _ = play_masked_random(env, seed=0)
    assert len(steps) == 10 and [s[2] for s in steps] == [False] * 9 + [True]
    assert not any(s[1] for s in steps) and steps[-1][0] == 0.0
    assert steps[-1][3]["rewards"] == {"tiger": 0.0, "men": 0.0}
    assert TigerEnv().max_plies == DEFAULT_MAX_PLIES == 2000
    assert TigerEnv(max_plies=None).max_plies is None


def test_self_play_gives_the_loser_its_minus_one_too() -> None:
    env = TigerEnv(variant(multi_jump=True))
    env.reset(options={"fen": CHAIN_FEN.replace(" t ", " m ")})
    _, reward, *_, info = env.step(env.move_to_actions("a1a2")[0])  # the men's move
    assert reward == 0.0 and info["rewards"] == {"tiger": 0.0, "men": 0.0}
    for action in env.move_to_actions("e5e7g7g5e5"):
        _, reward, terminated, _, info = env.step(action)
    assert (reward, terminated) == (1.0, True)
    assert info["rewards"] == {"tiger": 1.0, "men": -1.0}
    plain = {key: value for key, value in info.items() if key != "action_mask"}
    assert json.loads(json.dumps(plain)) == {**plain, "reward_by_seat": [1.0, -1.0]}


# --- illegal actions, options, rendering --------------------------------------------------------


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = TigerEnv("laohuqi", illegal_action_penalty=-5.0)
    _, info = env.reset()
    fen = info["fen"]
    for action in (env.move_to_actions("e10e9")[0] + 1, STOP_ACTION):
        env.reset()
        if info["action_mask"][action]:
            continue
        _, reward, terminated, truncated, info2 = env.step(action)
        assert (reward, terminated, truncated) == (-5.0, True, False)
        assert info2["illegal_action"] and info2["fen"] == fen
        assert info2["rewards"] == {"tiger": -5.0, "men": 0.0}
        assert not env.action_masks().any()
        with pytest.raises(gymnasium.error.ResetNeeded):
            env.step(0)


def test_illegal_action_can_raise_instead() -> None:
    env = TigerEnv("laohuqi", illegal_action="raise")
    env.reset()
    with pytest.raises(IllegalActionError, match="no jump chain"):
        env.step(STOP_ACTION)
    _, reward, terminated, _, info = env.step(env.move_to_actions("e10e9")[0])  # goes on
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, False)
    for action in (env.action_space.n, -1):
        with pytest.raises(ValueError, match="outside the action space"):
            env.step(action)


def test_reset_from_a_position_and_bad_arguments() -> None:
    env = TigerEnv("laohuqi")
    fen = place("e9", "a1 b1 c1 d1 e1", "m", 3, 2)
    obs, info = env.reset(options={"fen": fen})
    assert info["fen"] == fen and info["turn"] == MEN_SIDE
    assert np.array_equal(obs, encode_observation(Board(fen)))
    with pytest.raises(ValueError, match="already over"):
        env.reset(options={"fen": place("e9", "a1 b1 c1", "m")})  # 3 men: fewer than 4
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"position": fen})
    with pytest.raises(ValueError, match="agent_side needs an opponent"):
        TigerEnv(agent_side="men")
    with pytest.raises(ValueError, match="agent_side"):
        TigerEnv(opponent="random", agent_side="red")
    with pytest.raises(ValueError, match="opponent must be"):
        TigerEnv(opponent="engine")
    with pytest.raises(ValueError, match="illegal_action"):
        TigerEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        TigerEnv(render_mode="human")
    with pytest.raises(ValueError, match="max_plies"):
        TigerEnv(max_plies=0)


def test_ansi_render_shows_the_board() -> None:
    env = TigerEnv("laohuqi", render_mode="ansi")
    env.reset()
    env.step(env.move_to_actions("e10e9")[0])
    lines = env.render().splitlines()
    assert lines[0] == "11       . . ." and lines[2] == " 9 . . . . T . . . ."
    assert lines[11] == "   a b c d e f g h i"
    assert lines[12:] == ["men to move, ply 1", "last move: e10e9"]
    assert TigerEnv("laohuqi").render() is None


@pytest.mark.parametrize("rules", NAMED)
def test_default_limit_lets_random_games_end(rules) -> None:
    steps, _ = play_masked_random(TigerEnv(rules), seed=5)
    assert len(steps) <= DEFAULT_MAX_PLIES
