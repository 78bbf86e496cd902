"""The family spec: the one declaration a tool family makes.

Everything generic is derived from a :class:`FamilySpec`: the env ids and their step budgets
(registration), the env class and its documentation, the command line (``toolgym list``,
``serve``, ``generate``, ``build-tasks``), the prompting defaults and agent hints, the metrics the
reports show, and the parametrization of the family contract test suite.

A spec names its parts by import path (``"module:attribute"``, like Gymnasium entry points), so
importing :mod:`toolgym` registers every family without importing any of them.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any

from toolgym.benchmarks.score import F1_METRICS, MetricSpec
from toolgym.errors import ToolgymError

NAMESPACE = "toolbench"
"""The namespace of every env id: ``toolbench/<EnvName>-v<N>``."""

ALL_SUITE = "all"
"""The suite every family belongs to (``toolgym eval --suite all``)."""


def load_ref(ref: str) -> Any:
    """The object an import path ``"package.module:attribute"`` names.

    Raises:
        ToolgymError: the path is malformed, or the module or attribute does not exist.
    """
    module, sep, attr = ref.partition(":")
    if not sep or not module or not attr:
        raise ToolgymError(f"an import path looks like 'package.module:attribute'; got {ref!r}")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ToolgymError(f"cannot load {ref!r}: {e}") from e


@dataclass(frozen=True)
class VersionSpec:
    """One registered version of a family.

    Attributes:
        version: the ``N`` of ``-vN``.
        max_episode_steps: the step budget (truncation), kept in the registry.
        tasks: import path of the version's :class:`~toolgym.benchmarks.suite.TaskSuite`.
        toolkit: import path of the version's toolkit class, when it differs from the family's.
        history: what this version is or changed, for the docs' Version History.
        column: the version's column in the paper-layout table, when two versions of a family
            are two columns there (WebShop long and short); ``None``: the env name.
    """

    version: int
    max_episode_steps: int
    tasks: str
    toolkit: str | None = None
    history: str = ""
    column: str | None = None


@dataclass(frozen=True)
class PromptDefaults:
    """How LLM agents prompt for a family by default (the original's command-line settings).

    Attributes:
        top_k_api: how many API docs are retrieved into a prompt.
        max_new_tokens: the generation budget of one turn.
        strategy: how an LLM agent acts when none is asked for: ``"single"`` (one generation
            per step from a fresh prompt: the paper's protocol) or ``"react"`` (thought, action
            and observation turns with the history: ToolBench's multi-step protocol).
        eval_limit: how many test tasks ``toolgym eval`` gives an LLM agent by default, when a
            family's episodes cost several times the others' (many generations, prompts of
            thousands of tokens, long answers), so that the default run stays short
            (``None``: the command line's default). ``--limit`` and ``--suite`` override it.
        shots: how many demonstrations are retrieved into a prompt (the original's
            ``top_k_example``).
    """

    top_k_api: int = 10
    max_new_tokens: int = 256
    strategy: str = "single"
    eval_limit: int | None = None
    shots: int = 3


@dataclass(frozen=True)
class BenchAction:
    """An action the performance benchmark times for a family (``toolgym bench``).

    Attributes:
        task_id: the test task it is played on.
        action: the action, as an agent would write it (program mode).
        label: what it is, for the printed line ("a five-call gspread program").
    """

    task_id: str
    action: str
    label: str


_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
_CAMEL = re.compile(r"^[A-Z][A-Za-z0-9]*$")


@dataclass(frozen=True)
class FamilySpec:
    """A tool family's declaration (see the module docstring).

    Attributes:
        name: the family's one name, the same in every layer (``simulators/<name>``,
            ``tools/<name>``, ``benchmarks/<name>``, ``envs/<name>``).
        title: its name in tables and docs ("Home Search").
        env_name: the ``<EnvName>`` of its env ids and of its env class ``<EnvName>Env``.
        toolkit: import path of its :class:`~toolgym.tools.toolkit.Toolkit` class, whose
            keyword-only arguments are the family's env options.
        versions: the registered versions, oldest first; each keeps its tasks and budget.
        prompting: LLM prompting defaults.
        metrics: the metrics its checkers report, as reports aggregate them.
        reward: the metric the reward is (``reward_type="success"`` gives 1 or 0 instead).
        service: import path of the simulated HTTP service ``toolgym serve <name>`` runs.
        aliases: other names the command line accepts for the family.
        doc: the env documentation (Description, Tools, Action Space, ..., Arguments); the
            Version History section is added from :attr:`versions` (see :meth:`full_doc`).
        bench: a typical action ``toolgym bench`` times end to end, when the family's actions
            cost more than a call (programs run in the sandbox).
        action_mode: the benchmark's protocol, the env's default: ``"program"`` (one action,
            single-step) or ``"call"`` (multi-step, as WebShop).
        measures: import path of a function returning lines of the family's own performance
            measures, which ``toolgym bench`` prints (WebShop's search at 100,000 products).
        render_modes: the env's render modes: ``"ansi"`` (text) for every family, and
            ``"rgb_array"`` for a family whose backend draws its state (``render_rgb()``).
        breakdown: a metric whose value names a group of tasks (Tabletop's ``template``):
            summaries also give each metric per group, and the command line prints that table.
        headline: the metrics the paper's main table shows for the family (its success rate,
            or VirtualHome's executability and LCS): one column each in the headline and
            ablation tables (:mod:`toolgym.evaluation.paper_tables`).
        suites: the named benchmark suites the family belongs to (``toolgym eval --suite``):
            ``"toolbench"`` is the paper's eight tools; every family is also in ``"all"``.
    """

    name: str
    title: str
    env_name: str
    toolkit: str
    versions: tuple[VersionSpec, ...]
    prompting: PromptDefaults = field(default_factory=PromptDefaults)
    metrics: tuple[MetricSpec, ...] = F1_METRICS
    reward: str = "f1"
    service: str | None = None
    aliases: tuple[str, ...] = ()
    doc: str = ""
    bench: BenchAction | None = None
    action_mode: str = "program"
    measures: str | None = None
    render_modes: tuple[str, ...] = ("ansi",)
    breakdown: str | None = None
    headline: tuple[str, ...] = ("success",)
    suites: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.action_mode not in ("program", "call"):
            raise ValueError(f"action_mode is 'program' or 'call'; got {self.action_mode!r}")
        unknown = set(self.render_modes) - {"ansi", "rgb_array"}
        if "ansi" not in self.render_modes or unknown:
            raise ValueError(
                f"render_modes holds 'ansi' and may add 'rgb_array'; got {self.render_modes!r}"
            )
        if not _SNAKE.match(self.name):
            raise ValueError(f"a family name is snake_case; got {self.name!r}")
        if not _CAMEL.match(self.env_name):
            raise ValueError(f"an env name is CamelCase; got {self.env_name!r}")
        numbers = [v.version for v in self.versions]
        if not numbers or numbers != sorted(set(numbers)):
            raise ValueError(
                f"family {self.name!r} needs versions in increasing order; got {numbers}"
            )
        keys = {m.key for m in self.metrics}
        if self.reward not in keys:
            raise ValueError(f"the reward {self.reward!r} is not one of the family's metrics")
        missing = [k for k in self.headline if k not in keys]
        if not self.headline or missing:
            raise ValueError(
                f"headline names one or more of the family's metrics {sorted(keys)}; "
                f"got {self.headline!r}"
            )
        if ALL_SUITE in self.suites:
            raise ValueError(f"every family is in the {ALL_SUITE!r} suite; do not list it")

    @property
    def class_name(self) -> str:
        """The env class name (``HomeSearchEnv``)."""
        return f"{self.env_name}Env"

    @property
    def latest(self) -> VersionSpec:
        """The newest version."""
        return self.versions[-1]

    def env_id(self, version: int | None = None) -> str:
        """``toolbench/<EnvName>-v<N>`` (the newest version by default)."""
        number = self.latest.version if version is None else version
        return f"{NAMESPACE}/{self.env_name}-v{number}"

    def full_doc(self) -> str:
        """:attr:`doc` with its Version History: each version's history, budget and task set."""
        lines = [
            f"* v{v.version}: {v.history or 'no history given'} (``{self.env_id(v.version)}``, "
            f"``max_episode_steps={v.max_episode_steps}``)."
            for v in self.versions
        ]
        return f"{self.doc.rstrip()}\n\n## Version History\n\n" + "\n".join(lines) + "\n"

    def get_version(self, version: int | None) -> VersionSpec:
        """The spec of ``version`` (``None``: the newest).

        Raises:
            ValueError: an unregistered version (the message lists the registered ones).
        """
        if version is None:
            return self.latest
        for spec in self.versions:
            if spec.version == version:
                return spec
        known = ", ".join(str(v.version) for v in self.versions)
        raise ValueError(f"{self.title} has versions {known}; got version={version!r}")
