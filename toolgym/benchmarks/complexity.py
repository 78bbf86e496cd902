"""The API complexity score of a task set (the ToolBench paper, Appendix D).

The score says how far a task's test cases are from its demonstrations, counted in the APIs
they use. For a test case whose label calls the API set ``t``, a demonstration that calls ``e``
and the task's API set ``D``, the chance of reaching ``t`` from ``e`` by keeping each API of
``e`` with probability 1/2 and drawing each missing one uniformly from ``D`` is

    ``p(t | e, D) = (1/2)^|e| * (1/|D|)^|t \\ e|``,

its distance ``d(t, e, D) = log(1 / p) = |e| log 2 + |t \\ e| log |D|``, and the task's score
``S`` is the mean over test cases of the distance to the closest demonstration
(:func:`api_complexity`). The log base is a parameter (natural log by default; ``2`` gives
bits).

``t`` and ``e`` are sets of API names, as the paper defines them. With ``multiset=True`` they
are multisets instead: an API called three times counts three times in ``|e|``, and
``t \\ e`` keeps the calls of ``t`` that ``e`` does not match one for one.

Which APIs an action calls is the family's to say: :meth:`toolgym.tools.toolkit.Toolkit.api_calls`
reads them from a gold label or a demonstration (through the family's action language), and
:meth:`~toolgym.tools.toolkit.Toolkit.api_names` is ``D``. :func:`split_complexity` computes the
score of an env's fixed split against its demonstration pool; a family gives the paper's value
for comparison as ``PAPER_COMPLEXITY``, a module-level number in the module that holds its task
suite.

>>> round(case_distance({"a", "b"}, {"a"}, num_apis=4), 4)  # log 2 + log 4
2.0794
>>> api_complexity([{"a"}, {"a", "b"}], [{"a"}, {"b"}], num_apis=4, base=2)  # (1 + 3) / 2
2.0
"""

from __future__ import annotations

import importlib
import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium as gym

from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.tools.toolkit import Toolkit

DEMO_POOL = "demo"
"""The pool name that means the demonstrations as agents use them (see :func:`pool_tasks`)."""

PAPER_ATTRIBUTE = "PAPER_COMPLEXITY"
"""The module-level name under which a family's task module gives the paper's score."""


def _check_base(base: float) -> float:
    if isinstance(base, bool) or not isinstance(base, int | float) or base <= 0 or base == 1:
        raise ValueError(f"the log base must be a positive number other than 1; got {base!r}")
    return float(base)


def _check_num_apis(num_apis: int) -> int:
    if isinstance(num_apis, bool) or not isinstance(num_apis, int) or num_apis < 1:
        raise ValueError(f"num_apis (|D|) must be a positive int; got {num_apis!r}")
    return num_apis


def _sizes(test: Collection[str], demo: Collection[str], multiset: bool) -> tuple[int, int]:
    """``(|e|, |t \\ e|)``, over sets or multisets."""
    if multiset:
        demo_counts = Counter(demo)
        return sum(demo_counts.values()), sum((Counter(test) - demo_counts).values())
    demo_set = set(demo)
    return len(demo_set), len(set(test) - demo_set)


def case_distance(
    test: Collection[str],
    demo: Collection[str],
    num_apis: int,
    base: float = math.e,
    multiset: bool = False,
) -> float:
    """``d(t, e, D) = |e| log 2 + |t \\ e| log |D|``: how far demonstration ``e`` is from ``t``.

    Args:
        test: the APIs the test case's label calls (``t``).
        demo: the APIs the demonstration calls (``e``).
        num_apis: ``|D|``, the number of the task's APIs.
        base: the log base (``math.e``: nats; ``2``: bits).
        multiset: count repeated calls (see the module docstring); otherwise sets.

    Raises:
        ValueError: ``num_apis`` below 1, or a base that is not a positive number other than 1.

    >>> case_distance(["a", "a", "b"], ["a"], 8, base=2, multiset=True)  # 1 + 2 * 3
    7.0
    """
    num_apis, base = _check_num_apis(num_apis), _check_base(base)
    kept, missing = _sizes(test, demo, multiset)
    return (kept * math.log(2) + missing * math.log(num_apis)) / math.log(base)


def _distinct(sets: Iterable[Collection[str]], multiset: bool) -> list[tuple[str, ...]]:
    """The distinct API sets (or multisets) of ``sets``, each as a sorted tuple."""
    keys = {tuple(sorted(s if multiset else set(s))) for s in sets}
    return sorted(keys)


def case_complexity(
    labels: Sequence[Collection[str]],
    demo_sets: Sequence[Collection[str]],
    num_apis: int,
    base: float = math.e,
    multiset: bool = False,
) -> float:
    """The distance from a test case to its closest demonstration.

    Args:
        labels: the API sets of the case's labels; a case with alternative labels (any of
            which is correct) is as close as its closest label.
        demo_sets: the API sets of the demonstrations.
        num_apis: ``|D|``.
        base: the log base.
        multiset: count repeated calls.

    Raises:
        ValueError: no label or no demonstration (the minimum is over nothing), or a bad
            ``num_apis`` or ``base``.
    """
    if not labels:
        raise ValueError("a test case needs at least one label API set; got none")
    if not demo_sets:
        raise ValueError("the demonstration pool is empty; the score needs at least one demo")
    demos = _distinct(demo_sets, multiset)
    return min(
        case_distance(label, demo, num_apis, base, multiset)
        for label in _distinct(labels, multiset)
        for demo in demos
    )


def api_complexity(
    test_sets: Sequence[Collection[str]],
    demo_sets: Sequence[Collection[str]],
    num_apis: int,
    base: float = math.e,
    multiset: bool = False,
) -> float:
    """The task score ``S``: the mean over test cases of ``min over demos e of d(t, e, D)``.

    Args:
        test_sets: one API set ``t`` per test case.
        demo_sets: one API set ``e`` per demonstration.
        num_apis: ``|D|``.
        base: the log base (``math.e`` by default, ``2`` for bits).
        multiset: count repeated calls (see the module docstring).

    Raises:
        ValueError: no test case, no demonstration, or a bad ``num_apis`` or ``base``.

    >>> api_complexity([{"a", "b"}], [set()], num_apis=4, base=2)  # no demo API: 2 * log2(4)
    4.0
    """
    if not test_sets:
        raise ValueError("the score is a mean over test cases; got no test case")
    if not demo_sets:
        raise ValueError("the demonstration pool is empty; the score needs at least one demo")
    demos = _distinct(demo_sets, multiset)
    cache: dict[tuple[str, ...], float] = {}
    total = 0.0
    for test in test_sets:
        key = tuple(sorted(test if multiset else set(test)))
        if key not in cache:
            cache[key] = case_complexity([key], demos, num_apis, base, multiset)
        total += cache[key]
    return total / len(test_sets)


@dataclass(frozen=True)
class ComplexityResult:
    """The API complexity of one env's split against its demonstration pool.

    Attributes:
        env_id: the env id.
        split: the split whose tasks are the test cases.
        pool: the split the demonstrations come from.
        base: the log base.
        multiset: whether repeated calls counted.
        score: ``S``.
        num_apis: ``|D|``.
        test_cases: the number of test cases.
        demos: the number of demonstrations.
        mean_test_apis: the mean size of a test case's API set (its first label's).
        mean_demo_apis: the mean size of a demonstration's API set.
        covered: the share of test cases with a demonstration that calls every API of one of
            their labels (``t ⊆ e``: no API has to be drawn from ``D``).
        paper: the paper's score for the task (its Table 4), when the family gives one.
        distances: each test case's distance to its closest demonstration, in split order.
    """

    env_id: str
    split: str
    pool: str
    base: float
    multiset: bool
    score: float
    num_apis: int
    test_cases: int
    demos: int
    mean_test_apis: float
    mean_demo_apis: float
    covered: float
    paper: float | None
    distances: tuple[float, ...]

    @property
    def gap(self) -> float | None:
        """``(score - paper) / paper``; ``None`` without a paper value or when it is 0."""
        if self.paper is None or self.paper == 0:
            return None
        return (self.score - self.paper) / self.paper

    def to_dict(self, distances: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (the per-case distances only with ``distances``)."""
        out = asdict(self)
        out["gap"] = self.gap
        if not distances:
            del out["distances"]
        else:
            out["distances"] = list(self.distances)
        return out


def pool_tasks(suite: TaskSuite, pool: str) -> list[Task]:
    """The demonstrations of ``pool``.

    :data:`DEMO_POOL` gives the demonstrations as agents use them
    (:meth:`~toolgym.benchmarks.suite.TaskSuite.demo_pairs`: for a family whose agents prompt
    on each page, every step of every ``demo`` task is a demonstration of its own); any other
    fixed split gives its tasks.

    Raises:
        ValueError: ``pool`` is not a fixed split of the suite.
    """
    if pool not in suite.splits:
        raise ValueError(
            f"the demonstration pool must be one of the fixed splits "
            f"{', '.join(map(repr, suite.splits))}; got {pool!r}"
        )
    if pool == DEMO_POOL:
        return suite.demo_pairs()
    return list(suite.load(pool).values())


def complexity_of(
    suite: TaskSuite,
    toolkit: Toolkit,
    split: str = "test",
    pool: str = DEMO_POOL,
    base: float = math.e,
    multiset: bool = False,
    env_id: str = "",
    paper: float | None = None,
) -> ComplexityResult:
    """The API complexity of ``suite``'s ``split`` against ``pool``, with ``toolkit``'s APIs.

    Each test case counts every one of its labels (the closest one decides); each
    demonstration counts its first label, the one prompts show.

    Args:
        suite: the family's task suite.
        toolkit: the family's toolkit: ``D`` (:meth:`~Toolkit.api_names`) and each label's API
            set (:meth:`~Toolkit.api_calls`).
        split: the fixed split of the test cases.
        pool: the fixed split of the demonstrations (see :func:`pool_tasks`).
        base: the log base.
        multiset: count repeated calls.
        env_id: the env id the result names.
        paper: the paper's value, to compare with.

    Raises:
        ValueError: an unknown split or pool, an empty one, or a bad ``base``.
    """
    _check_base(base)
    if split not in suite.splits:
        raise ValueError(
            f"split must be one of the fixed splits {', '.join(map(repr, suite.splits))}; "
            f"got {split!r}"
        )
    tests = list(suite.load(split).values())
    demos = pool_tasks(suite, pool)
    if not tests:
        raise ValueError(f"split {split!r} has no task; the score is a mean over test cases")
    if not demos:
        raise ValueError(f"the demonstration pool {pool!r} is empty")
    num_apis = len(toolkit.api_names())
    test_labels = [[toolkit.api_calls(gold) for gold in task.gold] for task in tests]
    demo_sets = [toolkit.api_calls(task.gold[0]) for task in demos]
    distinct_demos = _distinct(demo_sets, multiset)
    distances = tuple(
        case_complexity(labels, distinct_demos, num_apis, base, multiset) for labels in test_labels
    )
    covered = sum(
        any(_sizes(label, demo, multiset)[1] == 0 for label in labels for demo in distinct_demos)
        for labels in test_labels
    )

    def size(calls: Collection[str]) -> int:
        return len(calls) if multiset else len(set(calls))

    return ComplexityResult(
        env_id=env_id,
        split=split,
        pool=pool,
        base=float(base),
        multiset=multiset,
        score=sum(distances) / len(distances),
        num_apis=num_apis,
        test_cases=len(tests),
        demos=len(demos),
        mean_test_apis=sum(size(labels[0]) for labels in test_labels) / len(tests),
        mean_demo_apis=sum(size(calls) for calls in demo_sets) / len(demos),
        covered=covered / len(tests),
        paper=paper,
        distances=distances,
    )


def paper_complexity(tasks_ref: str) -> float | None:
    """The paper's score a family gives next to its task suite, if any.

    Args:
        tasks_ref: the import path of a version's task suite (``"package.module:SUITE"``); the
            value is that module's ``PAPER_COMPLEXITY``.
    """
    module = importlib.import_module(tasks_ref.partition(":")[0])
    value = getattr(module, PAPER_ATTRIBUTE, None)
    return None if value is None else float(value)


def split_complexity(
    env_id: str,
    split: str = "test",
    pool: str = DEMO_POOL,
    base: float = math.e,
    world_seed: int = 0,
    multiset: bool = False,
) -> ComplexityResult:
    """The API complexity of an env's ``split`` against its demonstration ``pool``.

    The env is made with Gymnasium (``gym.make(env_id)``; an id not registered yet is looked
    up as ``toolgym:<id>``, which registers toolgym's envs), and its task suite and toolkit
    give the tasks and their APIs (see :func:`complexity_of`).

    Args:
        env_id: a registered env id (``toolbench/<EnvName>-v<N>``).
        split: the fixed split of the test cases.
        pool: the fixed split of the demonstrations (``demo``: as agents use them).
        base: the log base (``math.e`` by default; ``2`` for bits).
        world_seed: the world (the stored splits belong to the world they were built for;
            the env refuses another one).
        multiset: count repeated calls.

    Raises:
        ValueError: an unknown split or pool, or a bad ``base``.
        gymnasium.error.Error: an env id no one registers.
    """
    _check_base(base)
    make_id = env_id if env_id in gym.registry else f"toolgym:{env_id}"
    env = gym.make(make_id, split=split, world_seed=world_seed)
    try:
        parts: Any = env.unwrapped  # a toolgym env: its suite, toolkit, family and version
        tasks_ref = parts.family.get_version(parts.version).tasks
        return complexity_of(
            parts.suite,
            parts.toolkit,
            split,
            pool,
            base,
            multiset,
            env_id=env_id,
            paper=paper_complexity(tasks_ref),
        )
    finally:
        env.close()
