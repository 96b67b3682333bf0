"""The reinforcement-learning environment
(doushouqi.jungle.rl): encoding, masks, episodes, opponents.

The action encoding and the mask are checked against the rules library on random positions of
all four named rule sets; episodes against the library's own outcome of the same moves.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterator

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi import BLUE, BUILTIN_RULE_SETS, RED, Board, Move
from doushouqi.jungle.rl import (
    ENV_ID,
    NUM_ACTIONS,
    NUM_PLANES,
    OBSERVATION_SHAPE,
    PLANE_NAMES,
    IllegalActionError,
    JungleEnv,
    action_to_move,
    encode_observation,
    legal_action_mask,
    move_to_action,
)
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, outcome_info
from doushouqi.jungle.squares import FILE_NAMES

RULE_SETS = list(BUILTIN_RULE_SETS)  # wango, classic, classic-dog, international


def plane(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[PLANE_NAMES.index(name)]


def random_game(rules: str, seed: int, max_plies: int = 400) -> Iterator[Board]:
    """Every position of one random game (the same board object, advanced one ply a time)."""
    rng = np.random.default_rng(seed)
    board = Board(rules=rules)
    for _ in range(max_plies):
        yield board
        if board.outcome() is not None:
            return
        moves = list(board.legal_moves)
        board.push(moves[rng.integers(len(moves))])


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


def mirror_fen(fen: str) -> str:
    """The position turned half round with the colours swapped (and the other side to move)."""
    placement, turn, *counters = fen.split()
    rows = [row[::-1].swapcase() for row in placement.split("/")[::-1]]
    return " ".join(["/".join(rows), "b" if turn == "w" else "w", *counters])


# --- gymnasium API ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "classic"},
        {"rules": "wango", "render_mode": "ansi"},
        {"rules": "international", "opponent": "random", "agent_color": "random"},
        {"rules": "classic-dog", "opponent": "random", "agent_color": "blue", "max_plies": 50},
    ],
)
def test_check_env_passes_without_warnings(kwargs) -> None:
    env = gymnasium.make(ENV_ID, **kwargs).unwrapped  # made by id: the checker uses its spec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium's checker reports problems as warnings too
        check_env(env)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make(ENV_ID, rules="classic")
    assert isinstance(env.unwrapped, JungleEnv)
    assert env.unwrapped.rules.name == "classic"
    assert env.observation_space.shape == OBSERVATION_SHAPE == (NUM_PLANES, 9, 7)
    assert env.action_space.n == NUM_ACTIONS
    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and obs in env.observation_space
    assert info["action_mask"].sum() == Board(rules="classic").legal_moves.count()
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])


def test_importing_rl_does_not_load_the_engine() -> None:
    code = "import sys, doushouqi.jungle.rl; assert 'numba' not in sys.modules, 'numba loaded'"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- action encoding and mask -----------------------------------------------------------------


@pytest.mark.parametrize("color", [RED, BLUE])
def test_every_action_is_at_most_one_move_and_back(color) -> None:
    moves = {}
    for action in range(NUM_ACTIONS):
        try:
            move = action_to_move(action, color)
        except ValueError:
            continue
        assert move_to_action(move, color) == action
        moves[move] = action
    # 63 squares x 4 directions minus the board edges, plus the 20 lake jumps.
    steps = 4 * 63 - 2 * 9 - 2 * 7
    assert len(moves) == steps + 20


def test_non_moves_have_no_action() -> None:
    with pytest.raises(ValueError, match="no action"):
        move_to_action(Move.null(), RED)
    with pytest.raises(ValueError, match="no action"):
        move_to_action(Move.from_str("a1c1"), RED)
    with pytest.raises(ValueError, match="outside"):
        action_to_move(NUM_ACTIONS, RED)
    with pytest.raises(ValueError, match="no move"):
        action_to_move(1, RED)  # a1 one step down: off the board


def test_actions_are_seen_from_the_mover_seat() -> None:
    # "Up" is towards the enemy den for both sides; a jump is a jump in either view.
    assert action_to_move(move_to_action(Move.from_str("a3a4"), RED), BLUE) == Move.from_str("g7g6")
    assert move_to_action(Move.from_str("a4d4"), RED) == move_to_action(Move.from_str("g6d6"), BLUE)


def check_mask_matches_library(board: Board) -> None:
    legal = set(board.legal_moves)
    mask = legal_action_mask(board)
    decoded = {action_to_move(int(a), board.turn) for a in np.flatnonzero(mask)}
    if board.outcome() is not None:
        # A game drawn by rule (a repetition) may still have moves on the board: none legal.
        assert not decoded
        return
    for move in legal:
        action = move_to_action(move, board.turn)
        assert action_to_move(action, board.turn) == move
        assert mask[action]
    assert decoded == legal


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_mask_is_the_library_legal_moves_along_random_games(rules, seed) -> None:
    for board in random_game(rules, seed, max_plies=150):
        check_mask_matches_library(board)


def test_mask_leaves_out_a_move_forbidden_by_rule_7_3() -> None:
    env = JungleEnv("classic", illegal_action="raise")
    env.reset(options={"fen": "6r/7/7/7/7/7/3W3/7/7 w"})  # Red wolf d3, Blue rat g9
    red = ["d3d4", "d4d3"] * 3
    blue = ["g9g8", "g8g7", "g7g6", "g6g5", "g5g4", "g4g3"]
    for red_move, blue_move in zip(red, blue, strict=True):
        env.step(env.move_to_action(red_move))
        env.step(env.move_to_action(blue_move))
    forbidden = env.move_to_action("d3d4")  # d4 entered 3 times within Red's last 6 moves
    assert not env.action_masks()[forbidden]
    assert env.action_masks()[env.move_to_action("d3c3")]
    check_mask_matches_library(env.board)
    with pytest.raises(IllegalActionError, match="move restriction"):
        env.step(forbidden)


# --- observation ------------------------------------------------------------------------------


def test_plane_names_are_documented_once_each() -> None:
    assert len(PLANE_NAMES) == len(set(PLANE_NAMES)) == NUM_PLANES
    import doushouqi.jungle.rl.encoding as encoding

    # The table names the animal planes as ranges ("own rat … own elephant"), the rest one by one.
    documented = ("own rat", "own elephant", "enemy rat", "enemy elephant", *PLANE_NAMES[16:])
    for name in documented:
        assert name in encoding.__doc__, name


def test_start_position_planes() -> None:
    obs = encode_observation(Board(rules="classic"))
    assert obs.shape == OBSERVATION_SHAPE and obs.dtype == np.float32
    assert plane(obs, "own elephant")[2, 0] == 1  # Red's elephant on a3: view row 2, file 0
    assert plane(obs, "own lion")[0, 6] == 1  # g1
    assert plane(obs, "enemy lion")[8, 0] == 1  # Blue's lion on a9
    assert obs[:16].sum() == 16
    assert plane(obs, "water").sum() == 12 and plane(obs, "water")[3:6, 1:3].all()
    assert plane(obs, "own den")[0, 3] == 1 and plane(obs, "enemy den")[8, 3] == 1
    assert plane(obs, "own traps")[0, 2] == plane(obs, "own traps")[1, 3] == 1
    assert plane(obs, "enemy traps").sum() == 3 and plane(obs, "enemy traps")[7, 3] == 1
    assert (plane(obs, "rule 7-3") == 1).all() and (plane(obs, "dog outranks wolf") == 0).all()
    assert (plane(obs, "no-capture clock") == 0).all() and (plane(obs, "repetition") == 0).all()
    dog_rules = encode_observation(Board(rules="classic-dog"))
    assert (plane(dog_rules, "dog outranks wolf") == 1).all()
    wango = encode_observation(Board(rules="wango"))
    assert (plane(wango, "own rat blocks jumps") == 1).all()
    assert (plane(wango, "no-capture limit") == 0).all()


def test_clock_and_repetition_planes() -> None:
    board = Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 50 30", rules="classic")
    assert (plane(encode_observation(board), "no-capture clock") == 0.25).all()  # 50 of 200
    for move in ["a3a4", "g7g6", "a4a3", "g6g7"]:
        board.push_move(move)
    assert (plane(encode_observation(board), "repetition") == 0.5).all()  # second time
    wango = Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 50 30", rules="wango")
    assert (plane(encode_observation(wango), "no-capture clock") == 0).all()  # no limit


def test_blue_sees_its_own_animals_at_its_own_end() -> None:
    board = Board(rules="wango")
    board.push_move("a3a4")
    obs = encode_observation(board)  # Blue to move
    assert plane(obs, "own elephant")[2, 0] == 1  # Blue's elephant on g7
    assert plane(obs, "enemy elephant")[5, 6] == 1  # Red's elephant on a4, seen half turned
    # Red's own animals as Red sees them are Blue's enemies turned half round.
    half_turned = encode_observation(board, BLUE)[8:16, ::-1, ::-1]
    assert np.array_equal(encode_observation(board, RED)[:8], half_turned)


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_red_and_mirrored_blue_see_the_same(rules, seed) -> None:
    for ply, board in enumerate(random_game(rules, seed, max_plies=120)):
        if ply % 7:
            continue
        position = Board(board.fen(), rules=rules)  # history-free: the mirror has none either
        mirrored = Board(mirror_fen(board.fen()), rules=rules)
        assert mirrored.turn != position.turn
        assert np.array_equal(encode_observation(position), encode_observation(mirrored))
        assert np.array_equal(legal_action_mask(position), legal_action_mask(mirrored))


# --- episodes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
def test_self_play_episodes_end_with_the_library_outcome(rules) -> None:
    env = JungleEnv(rules, max_plies=None)  # no move limit: every game ends on the board
    for seed in range(3):
        steps, reset_info = play_masked_random(env, seed)
        assert reset_info["turn"] == RED
        for reward, terminated, truncated, info in steps[:-1]:
            assert (reward, terminated, truncated) == (0.0, False, False)
            assert info["action_mask"].any()
        reward, terminated, truncated, info = steps[-1]
        assert terminated and not truncated and not info["action_mask"].any()
        # The same moves played on the library's own board end the same way.
        replay = Board(rules=rules)
        for move in env.board.move_stack:
            assert replay.is_legal(move)
            replay.push(move)
        assert replay.outcome() is not None
        assert info["outcome"] == outcome_info(replay.outcome())
        assert info["termination"] == info["outcome"]["termination"]
        red, blue = info["reward_by_color"]
        assert red == -blue
        mover = 1 - info["turn"]  # the side whose move ended the game
        assert reward == info["reward_by_color"][mover]
        if info["winner"] is None:
            assert reward == 0.0
        else:
            assert info["winner"] == mover and reward == 1.0 and red * blue == -1


def test_winning_move_rewards_the_mover() -> None:
    env = JungleEnv("wango")
    env.reset(options={"fen": "2L4/7/7/7/7/7/7/7/r6 w"})  # Red lion c9 next to Blue's den
    _, reward, terminated, truncated, info = env.step(env.move_to_action("c9d9"))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["termination"] == "den_entered" and info["reward_by_color"] == (1.0, -1.0)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize("agent_color", ["red", "blue"])
def test_random_opponent_episodes(agent_color) -> None:
    env = JungleEnv("international", opponent="random", agent_color=agent_color)
    color = RED if agent_color == "red" else BLUE
    for seed in range(3):
        steps, reset_info = play_masked_random(env, seed)
        assert env.agent_color == color and reset_info["turn"] == color
        assert reset_info["ply"] == (1 if color == BLUE else 0)  # Blue: Red has moved first
        for _, _, _, info in steps[:-1]:
            assert info["turn"] == color and info["opponent_move"] is not None
        reward, terminated, truncated, info = steps[-1]
        assert terminated and not truncated
        assert reward == info["reward_by_color"][color] in (-1.0, 0.0, 1.0)


def test_losing_to_the_opponent_costs_one() -> None:
    def enter_den_if_possible(board: Board) -> Move:
        moves = list(board.legal_moves)
        return next((m for m in moves if board.gives_den_entry(m)), moves[0])

    env = JungleEnv("wango", opponent=enter_den_if_possible, agent_color="blue")
    obs, _ = env.reset(options={"fen": "2L4/7/7/7/7/7/7/7/r6 b"})  # Blue rat a1 to move
    assert plane(obs, "own rat")[8, 6] == 1  # the agent (Blue) sees its rat half turned
    _, reward, terminated, _, info = env.step(env.move_to_action("a1a2"))
    assert (reward, terminated) == (-1.0, True)
    assert info["opponent_move"] == "c9d9" and info["winner"] == RED


def test_random_opponent_follows_the_reset_seed() -> None:
    def opponent_moves(seed: int) -> list[str | None]:
        env = JungleEnv("wango", opponent="random", agent_color="blue")
        _, info = env.reset(seed=seed)
        moves = [info["fen"]]
        for _ in range(10):
            first_legal = int(np.flatnonzero(info["action_mask"])[0])
            _, _, _, _, info = env.step(first_legal)
            moves.append(info["opponent_move"])
        return moves

    assert opponent_moves(7) == opponent_moves(7)
    assert len({tuple(opponent_moves(seed)) for seed in range(5)}) > 1


def test_callable_opponent_gets_a_copy_and_must_play_legally() -> None:
    def vandal(board: Board) -> Move:
        move = next(iter(board.legal_moves))
        board.push(move)  # mangles its own copy only
        return move

    env = JungleEnv("wango", opponent=vandal, agent_color="blue")
    _, info = env.reset()
    assert env.board.ply() == 1 and info["opponent_move"] is not None

    env = JungleEnv("wango", opponent=lambda board: Move.from_str("a1a9"), agent_color="blue")
    with pytest.raises(RuntimeError, match="the opponent played"):
        env.reset()


def test_engine_opponent_level_1() -> None:
    pytest.importorskip("numba")
    env = JungleEnv("classic", opponent=1, agent_color="blue", max_plies=40)
    steps, reset_info = play_masked_random(env, seed=5)
    assert reset_info["opponent_move"] is not None  # the engine opened as Red
    replay = Board(rules="classic")
    for move in env.board.move_stack:
        assert replay.is_legal(move)
        replay.push(move)
    reward, terminated, truncated, info = steps[-1]
    assert terminated or (truncated and env.board.ply() >= 40)
    assert terminated != truncated
    assert reward == (info["reward_by_color"][BLUE] if terminated else 0.0)


def test_max_plies_truncates() -> None:
    env = JungleEnv("wango", max_plies=10)
    steps, _ = play_masked_random(env, seed=0)
    assert len(steps) == 10
    assert [s[2] for s in steps] == [False] * 9 + [True]  # truncated only at the end
    assert not any(s[1] for s in steps)  # never terminated
    assert steps[-1][0] == 0.0


# --- illegal actions --------------------------------------------------------------------------


def an_illegal_but_real_move_action(env: JungleEnv) -> int:
    """An action that is a move on the board (not off it) but not a legal one now."""
    mask = env.action_masks()
    for action in range(NUM_ACTIONS):
        if mask[action]:
            continue
        try:
            env.action_to_move(action)
        except ValueError:
            continue
        return action
    raise AssertionError("every real move is legal?")


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = JungleEnv("wango", illegal_action_penalty=-5.0)
    _, info = env.reset()
    fen = info["fen"]
    for action in (an_illegal_but_real_move_action(env), 1):  # 1: off the board
        env.reset()
        _, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (-5.0, True, False)
        assert info["illegal_action"] and info["fen"] == fen  # nothing moved
        assert "outcome" not in info and not env.action_masks().any()
        with pytest.raises(gymnasium.error.ResetNeeded):
            env.step(env.move_to_action("a3a4"))


def test_illegal_action_can_raise_instead() -> None:
    env = JungleEnv("wango", illegal_action="raise")
    env.reset()
    action = an_illegal_but_real_move_action(env)
    with pytest.raises(IllegalActionError, match=f"illegal action {action}"):
        env.step(action)
    _, reward, terminated, _, info = env.step(env.move_to_action("a3a4"))  # the game goes on
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, False)


@pytest.mark.parametrize("illegal_action", ["penalty", "raise"])
def test_action_outside_the_space_always_raises(illegal_action) -> None:
    env = JungleEnv("wango", illegal_action=illegal_action)
    env.reset()
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(-1)


# --- options, reset and render ----------------------------------------------------------------


def test_reset_from_a_position() -> None:
    env = JungleEnv("wango")
    fen = "l5t/1d3c1/r1p1w1e/7/E6/7/2W1P1R/1C3D1/T5L b 1 1"
    obs, info = env.reset(options={"fen": fen})
    assert info["fen"] == fen and info["turn"] == BLUE
    assert np.array_equal(obs, encode_observation(Board(fen)))
    with pytest.raises(ValueError, match="already over"):
        env.reset(options={"fen": "3L3/7/7/7/7/7/7/7/r6 b"})  # Red is in Blue's den
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"position": fen})


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="agent_color needs an opponent"):
        JungleEnv(agent_color="blue")
    with pytest.raises(ValueError, match="agent_color"):
        JungleEnv(opponent="random", agent_color="green")
    with pytest.raises(ValueError, match="opponent must be"):
        JungleEnv(opponent="stockfish")
    with pytest.raises(ValueError, match=r"level is 1\.\.10"):
        JungleEnv(opponent=11)
    with pytest.raises(ValueError, match="illegal_action"):
        JungleEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        JungleEnv(render_mode="human")


def test_ansi_render_shows_the_board() -> None:
    env = JungleEnv("wango", render_mode="ansi")
    env.reset()
    env.step(env.move_to_action("a3a4"))
    text = env.render()
    lines = text.splitlines()
    assert lines[0] == "9 l . . . . . t"
    assert lines[5] == "4 E ~ ~ . ~ ~ ."
    assert lines[9] == "  " + " ".join(FILE_NAMES)
    assert "blue to move, ply 1" in text and "last move: a3a4" in text
    assert JungleEnv("wango").render() is None  # no render mode: nothing


# --- rewards of both sides, move limit, outcome as data, games over at reset -----------------


def test_self_play_gives_the_loser_its_minus_one_too() -> None:
    env = JungleEnv("wango")
    _, reset_info = env.reset(options={"fen": "2L4/7/7/7/7/7/7/7/r6 b"})  # Blue rat a1 to move
    assert "rewards" not in reset_info  # a reward belongs to a step
    _, reward, _, _, info = env.step(env.move_to_action("a1a2"))  # Blue's move: the game goes on
    assert reward == 0.0 and info["rewards"] == {"red": 0.0, "blue": 0.0}
    _, reward, terminated, _, info = env.step(env.move_to_action("c9d9"))  # Red enters the den
    assert (reward, terminated) == (1.0, True)
    assert info["rewards"] == {"red": 1.0, "blue": -1.0}  # Blue, who moved last step, loses 1


@pytest.mark.parametrize("rules", RULE_SETS)
def test_both_rewards_at_every_step_of_a_self_play_game(rules) -> None:
    steps, _ = play_masked_random(JungleEnv(rules), seed=11)
    for reward, terminated, truncated, info in steps:
        mover = "blue" if info["turn"] == RED else "red"  # the side that just moved
        assert reward == info["rewards"][mover]
        if not (terminated or truncated):
            assert info["rewards"] == {"red": 0.0, "blue": 0.0}
    *_, info = steps[-1]
    if "outcome" in info and info["winner"] is not None:
        loser = "blue" if info["winner"] == RED else "red"
        assert info["rewards"][loser] == -1.0
        assert sum(info["rewards"].values()) == 0.0


def test_rewards_after_an_illegal_action_and_a_truncation() -> None:
    env = JungleEnv("wango", illegal_action_penalty=-2.0)
    env.reset()
    _, reward, *_, info = env.step(1)  # off the board: Red's illegal action
    assert reward == -2.0 and info["rewards"] == {"red": -2.0, "blue": 0.0}
    steps, _ = play_masked_random(JungleEnv("wango", max_plies=5), seed=0)
    *_, truncated, info = steps[-1]
    assert truncated and info["rewards"] == {"red": 0.0, "blue": 0.0}


def test_default_move_limit() -> None:
    assert DEFAULT_MAX_PLIES == 1000
    assert JungleEnv().max_plies == DEFAULT_MAX_PLIES
    assert JungleEnv(opponent="random").max_plies == DEFAULT_MAX_PLIES
    assert gymnasium.make(ENV_ID).unwrapped.max_plies == DEFAULT_MAX_PLIES
    assert JungleEnv(max_plies=None).max_plies is None  # no limit when asked for none
    for seed in range(3):  # random games end, on the board or at the limit
        steps, _ = play_masked_random(JungleEnv("classic-dog"), seed)
        assert len(steps) <= DEFAULT_MAX_PLIES
        assert steps[-1][1] or (steps[-1][2] and len(steps) == DEFAULT_MAX_PLIES)


def test_outcome_info_is_plain_data() -> None:
    env = JungleEnv("wango", opponent="random", agent_color="red")
    env.reset(options={"fen": "2L4/7/7/7/7/7/7/7/r6 w"})
    *_, info = env.step(env.move_to_action("c9d9"))
    assert info["outcome"] == {"termination": "den_entered", "winner": "red", "result": "1-0"}
    plain = {key: value for key, value in info.items() if key != "action_mask"}
    assert json.loads(json.dumps(plain)) == {**plain, "reward_by_color": [1.0, -1.0]}


def enter_den_if_possible(board: Board) -> Move:
    moves = list(board.legal_moves)
    return next((m for m in moves if board.gives_den_entry(m)), moves[0])


def test_reset_where_the_opponent_first_move_ends_the_game() -> None:
    env = JungleEnv("wango", opponent=enter_den_if_possible, agent_color="blue")
    fen = "2L4/7/7/7/7/7/7/7/r6 w"  # Red (the opponent) to move, its lion next to Blue's den
    obs, info = env.reset(options={"fen": fen})
    assert info["opponent_move"] == "c9d9" and info["outcome"]["winner"] == "red"
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert obs.shape == OBSERVATION_SHAPE
    _, reward, terminated, truncated, info = env.step(0)  # any action: nothing is played
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["rewards"] == {"red": 1.0, "blue": -1.0} and env.board.ply() == 1
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    _, info = env.reset()  # the next episode is an ordinary one
    assert "outcome" not in info and info["action_mask"].any()
