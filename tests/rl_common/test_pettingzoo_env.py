"""Both games' PettingZoo environments through the shared part (doushouqi.rl_common): PettingZoo's
parallel_api_test, api_test, render_test and max_cycles_test, and max_cycles in each API's unit.
What differs by game (its moves, its illegal actions) is tested in tests/<game>/rl/."""

from __future__ import annotations

import warnings
from functools import partial
from types import ModuleType, SimpleNamespace

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test
from tests.tiger.rl.games import variant

from doushouqi.jungle.rl import pettingzoo_env as jungle
from doushouqi.tiger.rl import pettingzoo_env as tiger

#: Each game's environment module and rule sets to run PettingZoo's tests under (the Tiger's
#: multi-jump chains, where one agent acts several times in a row, and its largest space).
GAMES = [
    pytest.param(jungle, ["wango", "classic", "international"], id="jungle"),
    pytest.param(tiger, ["laohuqi", variant(multi_jump=True, diagonals="all")], id="tiger"),
]


def passes_without_warnings(test, *args, **kwargs) -> None:
    """Run a PettingZoo test; it must pass, warning only its advice on names and spaces."""
    expected = (
        "Observation is not a NumPy array",
        "We recommend agents to be named",
        "Observation space for each agent probably should be",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test(*args, **kwargs)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(expected)}


@pytest.mark.parametrize(("game", "rule_sets"), GAMES)
@pytest.mark.parametrize("illegal_action", ["terminate", "random"])
def test_parallel_api_test_passes(game: ModuleType, rule_sets, illegal_action) -> None:
    for rules in rule_sets:
        parallel = game.parallel_env(rules, max_plies=400, illegal_action=illegal_action)
        passes_without_warnings(parallel_api_test, parallel, num_cycles=1000)


@pytest.mark.parametrize(("game", "rule_sets"), GAMES)
def test_render_test_passes_in_human_and_ansi_modes(game: ModuleType, rule_sets, capsys) -> None:
    render_test(partial(game.env, max_plies=50))
    render_test(partial(game.raw_env, max_plies=50))
    first = game.raw_env().possible_agents[0]
    assert f"{first} to move, ply 0" in capsys.readouterr().out  # human mode printed boards


@pytest.mark.parametrize(("game", "rule_sets"), GAMES)
def test_max_cycles_test_passes_when_illegal_actions_play_a_random_move(
    game: ModuleType, rule_sets
) -> None:
    # max_cycles_test samples actions without the masks; under the default rule its first
    # illegal action would end the game before the cycles it counts.
    module = SimpleNamespace(
        env=partial(game.env, illegal_action="random"),
        parallel_env=partial(game.parallel_env, illegal_action="random"),
    )
    max_cycles_test(module)
    with pytest.raises(AssertionError):
        max_cycles_test(SimpleNamespace(env=game.env, parallel_env=game.parallel_env))


@pytest.mark.parametrize(("game", "rule_sets"), GAMES)
def test_api_test_passes_when_illegal_actions_play_a_random_move(
    game: ModuleType, rule_sets
) -> None:
    for rules in rule_sets:
        aec = game.env(rules, illegal_action="random", max_plies=200)
        passes_without_warnings(api_test, aec, 300)


@pytest.mark.parametrize(("game", "rule_sets"), GAMES)
def test_max_cycles_counts_cycles_in_each_api(game: ModuleType, rule_sets) -> None:
    aec = game.env(max_cycles=3)
    aec.reset(seed=1)
    assert aec.unwrapped.max_plies == 6  # a cycle: both agents act once
    assert game.parallel_env(max_cycles=3).unwrapped.max_plies == 3  # a cycle: one step
    assert game.env(max_plies=4, max_cycles=3).unwrapped.max_plies == 4
    with pytest.raises(ValueError, match="max_cycles"):
        game.env(max_cycles=0)
    with pytest.raises(ValueError, match="max_cycles"):
        game.parallel_env(max_cycles=0)
    with pytest.raises(ValueError, match="illegal_action"):
        game.env(illegal_action="skip")
