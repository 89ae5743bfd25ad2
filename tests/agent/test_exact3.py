"""The exact 3x3 solution: its engine against a plain reference, its values against a brute-force
expectimax, its file read back and refused when damaged, and the agent's moves."""

from __future__ import annotations

import random
import sys
from functools import cache, lru_cache

import numpy as np
import pytest

from screenbot.agent import exact3
from screenbot.agent.base import SearchCancelled
from screenbot.agent.exact3 import (
    Exact3Agent,
    SolutionFileError,
    UnsolvableBoard,
    build,
    load,
    pack,
    unpack,
)
from screenbot.agent.exact3_build import (
    afterstate_value,
    canonical,
    move,
    solve,
    state_value,
)
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Move

# Boards a few moves from the end: the brute force below solves each in well under a second.
NEAR_END = [
    ((32, 16, 8), (64, 128, 256), (0, 2, 0)),
    ((8, 128, 0), (256, 4, 0), (32, 1024, 0)),
    ((512, 256, 0), (128, 32, 2), (0, 1024, 2)),
    ((16, 0, 4), (256, 0, 512), (1024, 0, 128)),
    ((512, 32, 8), (64, 256, 2), (0, 1024, 0)),
    ((1024, 512, 64), (4, 0, 256), (16, 32, 0)),
]


# --- the plain reference: tuples of tile values, no packing, no tables, no symmetry ---

def ref_slide(line):
    tiles = [v for v in line if v]
    out, gain, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            gain += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out)), gain


def ref_move(grid, m):
    """The grid after Move m and its gain: up/down slide columns toward row 0/2, left/right rows."""
    cells = [[grid[r][c] for c in range(3)] for r in range(3)]
    gain = 0
    for k in range(3):
        line = [cells[i][k] for i in range(3)] if m in (Move.UP, Move.DOWN) else cells[k][:]
        backward = m in (Move.DOWN, Move.RIGHT)
        slid, g = ref_slide(line[::-1] if backward else line)
        slid = slid[::-1] if backward else slid
        gain += g
        for i in range(3):
            if m in (Move.UP, Move.DOWN):
                cells[i][k] = slid[i]
            else:
                cells[k][i] = slid[i]
    return tuple(tuple(row) for row in cells), gain


def ref_images(grid):
    """The 8 images of a grid under the square's symmetries."""
    out = []
    g = grid
    for _ in range(4):
        g = tuple(tuple(g[2 - c][r] for c in range(3)) for r in range(3))  # a quarter turn
        out += [g, tuple(row[::-1] for row in g)]
    return out


def ref_spawns(grid):
    empty = [(r, c) for r in range(3) for c in range(3) if grid[r][c] == 0]
    for r, c in empty:
        for v, p in ((2, 0.9), (4, 0.1)):
            cells = [list(row) for row in grid]
            cells[r][c] = v
            yield tuple(map(tuple, cells)), p / len(empty)


@cache
def brute_value(grid) -> float:
    """Full-depth expectimax: the best move's gain plus its spawns' mean value, 0 with no move."""
    return max([gain + brute_after(after) for after, gain in
                (ref_move(grid, m) for m in Move) if after != grid], default=0.0)


@cache
def brute_after(after) -> float:
    return sum(p * brute_value(state) for state, p in ref_spawns(after))


def brute_moves(grid) -> dict[Move, float]:
    return {m: gain + brute_after(after) for m in Move
            for after, gain in [ref_move(grid, m)] if after != grid}


@pytest.fixture(autouse=True)
def deep_recursion():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # a brute-force game is a few hundred moves deep
    yield
    sys.setrecursionlimit(limit)


def random_grid(rng: random.Random, full: float = 0.7, top: int = 11):
    return tuple(tuple((1 << rng.randint(1, rng.randint(1, top))) if rng.random() < full else 0
                       for _ in range(3)) for _ in range(3))


# --- the engine ---

def test_moves_match_the_reference_on_random_boards():
    rng = random.Random(35)
    for _ in range(3000):
        grid = random_grid(rng, full=rng.random(), top=rng.choice([2, 3, 11]))
        for m in Move:
            after, gain = move(pack(grid), int(m))
            assert (unpack(after), gain) == ref_move(grid, m), (grid, m)


def test_moves_match_the_game_rules():
    """The packed engine plays 3x3 as screenbot.game.rules does (the one home of the rules)."""
    from screenbot.game.rules import apply_move

    rng = random.Random(36)
    for _ in range(1000):
        grid = random_grid(rng, full=rng.random())
        for m in Move:
            after, gain = move(pack(grid), int(m))
            assert (unpack(after), gain) == apply_move(grid, m), (grid, m)


def test_pack_round_trips_and_refuses_what_is_not_a_3x3_board():
    grid = ((2, 0, 1024), (4, 8, 16), (0, 2048, 32))
    assert unpack(pack(grid)) == grid
    for bad in (((2, 0, 0), (0, 0, 0)), ((3, 0, 0), (0, 0, 0), (0, 0, 0)), ((4096, 0, 0), (0, 0, 0), (0, 0, 0))):
        with pytest.raises(ValueError):
            pack(bad)


def test_canonical_is_the_least_image_and_shared_by_all_eight():
    rng = random.Random(9)
    for _ in range(500):
        grid = random_grid(rng)
        images = ref_images(grid)
        assert len(images) == 8 and grid in images
        least = min(pack(g) for g in images)
        assert {canonical(pack(g)) for g in images} == {least}


def test_a_symmetric_image_plays_the_same_game():
    """Why one value serves all 8 images: the image of a move's result is the image's move's result."""
    rng = random.Random(4)
    for _ in range(300):
        grid = random_grid(rng)
        images = ref_images(grid)
        outcomes = [sorted((canonical(pack(a)), g) for a, g in (ref_move(img, m) for m in Move) if a != img)
                    for img in images]
        assert all(o == outcomes[0] for o in outcomes)


# --- the solve against the brute force ---

@pytest.mark.parametrize("grid", NEAR_END)
def test_solve_matches_brute_force(grid):
    layers = solve(np.array([pack(grid)], np.int64))
    assert state_value(pack(grid), layers) == pytest.approx(brute_value(grid), rel=1e-12, abs=1e-9)
    rng = random.Random(1)
    afters = [int(a) for s in layers.afters.values() for a in s]
    assert len(afters) > 20
    for a in rng.sample(afters, 60):
        assert afterstate_value(a, layers) == pytest.approx(brute_after(unpack(a)), rel=1e-12, abs=1e-9)


def test_a_board_with_no_legal_move_is_worth_nothing(small_solution_for):
    dead = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    layers = solve(np.array([pack(dead)], np.int64))
    assert state_value(pack(dead), layers) == 0.0 == brute_value(dead)
    assert Exact3Agent(solution=small_solution_for(dead)).choose(dead).move is None


# --- the file ---

@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return tmp_path_factory.mktemp("exact3"), {}


@pytest.fixture
def small_solution_for(files):
    """small_solution_for(*grids): a solution file of the states reachable from `grids`, built once."""
    folder, built = files

    def make(*grids):
        if grids not in built:
            built[grids] = load(build(folder / f"small-{len(built)}.bin", starts=grids))
        return built[grids]

    return make


def test_values_read_back_are_the_values_solved(tmp_path):
    grids = tuple(NEAR_END[:3])
    layers = solve(np.array([pack(g) for g in grids], np.int64))
    solution = load(build(tmp_path / "s.bin", starts=grids))
    count = 0
    for s, afters in layers.afters.items():
        for a, v in zip(afters, layers.values[s]):
            assert solution.afterstate_value(int(a)) == v  # exactly: float64 in, float64 out
            count += 1
    assert count == sum(len(a) for a in layers.afters.values()) == len(solution.keys)
    assert solution.head["afterstates"] == count and solution.expected_score is None
    for grid in grids:
        assert solution.state_value(pack(grid)) == pytest.approx(brute_value(grid), rel=1e-12)


def test_a_file_is_mapped_read_only(tmp_path):
    solution = load(build(tmp_path / "s.bin", starts=NEAR_END[:1]))
    assert not solution.values.flags.writeable and not solution.keys.flags.writeable


def test_a_damaged_file_is_refused(tmp_path):
    path = build(tmp_path / "s.bin", starts=NEAR_END[:2])
    load(path)
    data = bytearray(path.read_bytes())
    place = next(p for p in load(path).head["arrays"] if p["name"] == "values")
    data[place["offset"] + 13] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(SolutionFileError, match="damaged") as caught:
        load(path)
    assert "\n" not in str(caught.value) and isinstance(caught.value, ScreenbotError)


def test_a_cut_short_or_foreign_file_is_refused(tmp_path):
    path = build(tmp_path / "s.bin", starts=NEAR_END[:1])
    data = path.read_bytes()
    path.write_bytes(data[:-100])
    with pytest.raises(SolutionFileError, match="cut short"):
        load(path)
    path.write_bytes(b"not a solution at all")
    with pytest.raises(SolutionFileError, match="not a readable"):
        load(path)
    with pytest.raises(SolutionFileError, match="does not exist"):
        load(tmp_path / "missing.bin")


def test_ensure_builds_a_missing_file_once(tmp_path, monkeypatch):
    calls = []

    def small_build(path, progress=None):
        calls.append(path)
        return build(path, progress, starts=NEAR_END[:1])

    monkeypatch.setattr(exact3, "build", small_build)
    first = exact3.ensure(tmp_path / "s.bin")
    second = exact3.ensure(tmp_path / "s.bin")
    assert len(calls) == 1 and len(first.keys) == len(second.keys) > 0


def test_build_reports_progress_up_to_done(tmp_path):
    seen = []
    build(tmp_path / "s.bin", lambda done, total: seen.append((done, total)), starts=NEAR_END[:1])
    assert seen and all(0 <= d <= t for d, t in seen) and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


# --- the agent ---

def assert_best(decision, expected: dict[Move, float]):
    assert set(decision.values) == set(expected)
    for m, v in expected.items():
        assert decision.values[m] == pytest.approx(v, rel=1e-12, abs=1e-9)
    top = max(expected.values())
    assert expected[decision.move] == pytest.approx(top, rel=1e-12, abs=1e-9)


def test_the_agent_chooses_as_the_brute_force(small_solution_for):
    grids = tuple(NEAR_END)
    agent = Exact3Agent(solution=small_solution_for(*grids))
    for grid in grids:
        decision = agent.choose(grid)
        assert decision.nodes == 0  # read from the file
        assert_best(decision, brute_moves(grid))


def test_the_agent_chooses_as_the_brute_force_along_games(small_solution_for):
    grid = NEAR_END[2]
    agent = Exact3Agent(solution=small_solution_for(grid))
    rng = random.Random(7)
    for _ in range(5):
        board, moves = grid, 0
        while (decision := agent.choose(board)).move is not None:
            assert_best(decision, brute_moves(board))
            after, _ = ref_move(board, decision.move)
            spawns = list(ref_spawns(after))
            board = rng.choices([s for s, _ in spawns], [p for _, p in spawns])[0]
            moves += 1
        assert moves > 0


def test_a_board_outside_the_file_is_solved_on_demand(small_solution_for):
    inside, outside = NEAR_END[0], NEAR_END[4]
    agent = Exact3Agent(solution=small_solution_for(inside))
    assert np.isnan(agent.solution.state_value(pack(outside)))
    decision = agent.choose(outside)
    assert decision.nodes > 0
    assert_best(decision, brute_moves(outside))
    again = agent.choose(outside)  # kept from the solve just made
    assert again.nodes == 0 and again.values == decision.values


def test_a_board_too_large_to_solve_on_demand_says_so(small_solution_for):
    agent = Exact3Agent(solution=small_solution_for(NEAR_END[0]), on_demand_limit=50)
    with pytest.raises(UnsolvableBoard) as caught:
        agent.choose(NEAR_END[3])
    assert "\n" not in str(caught.value)


def test_an_agent_given_a_path_maps_it_at_warm_up(tmp_path):
    path = build(tmp_path / "s.bin", starts=NEAR_END[:1])
    agent = Exact3Agent(path=path)
    agent.warm_up()
    assert agent.solution.path == path
    assert_best(agent.choose(NEAR_END[0]), brute_moves(NEAR_END[0]))


def test_cancel_stops_choose_until_allowed(small_solution_for):
    agent = Exact3Agent(solution=small_solution_for(NEAR_END[0]))
    agent.cancel()
    with pytest.raises(SearchCancelled):
        agent.choose(NEAR_END[0])
    agent.allow()
    assert agent.choose(NEAR_END[0]).move is not None


@pytest.mark.slow
def test_the_whole_solution_matches_the_published_figures(tmp_path):
    """Built from the classic start (about 2 minutes, 0.8 GB): the counts Yamashita et al. and Dabish
    publish and the expected score Galebach and Dabish publish (docs/exact3.md)."""
    solution = load(build(tmp_path / "full.bin"))
    head = solution.head
    assert (head["states"], head["states_raw"]) == (48_713_519, 388_921_077)
    assert head["largest_tile"] == 1024
    assert round(solution.expected_score, 2) == 5468.49
    assert round(head["expected_score_two_twos"], 2) == 5469.21
    agent = Exact3Agent(solution=solution)
    for grid in NEAR_END[:2]:
        assert_best(agent.choose(grid), brute_moves(grid))
    beyond = ((1024, 1024, 512), (256, 128, 64), (32, 16, 0))  # tile sum 3056: no 3x3 game has it
    decision = agent.choose(beyond)
    assert decision.nodes > 0
    assert_best(decision, brute_moves(beyond))
