"""The family spec: the one declaration a tool family makes.

Everything about the env is derived from a :class:`FamilySpec`: the env ids and their step
budgets (registration), the env class and its documentation, the command line (``toolgym list``,
``serve``, ``generate``, ``build-tasks``), the metrics the env reports, and the parametrization of
the family contract test suite. What other layers need of a family is named by import path and
typed there: its prompting defaults (:mod:`toolgym.agents.defaults`) and its evaluation profile
(headline, suites, columns, benchmarks: :mod:`toolgym.evaluation.profile`).

A spec names its parts by import path (``"module:attribute"``, like Gymnasium entry points), so
importing :mod:`toolgym` registers every family without importing any of them.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

from toolgym.benchmarks.score import F1_METRICS, MetricSpec
from toolgym.errors import ToolgymError

NAMESPACE = "toolbench"
"""The namespace of every env id: ``toolbench/<EnvName>-v<N>``."""


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
    """

    version: int
    max_episode_steps: int
    tasks: str
    toolkit: str | None = None
    history: str = ""


_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
_CAMEL = re.compile(r"^[A-Z][A-Za-z0-9]*(-[A-Z][A-Za-z0-9]*)*$")


@dataclass(frozen=True)
class FamilySpec:
    """A tool family's declaration (see the module docstring).

    Attributes:
        name: the family's one name (its package ``toolgym/families/<name>``, its data files).
        title: its name in tables and docs ("Home Search").
        env_name: the ``<EnvName>`` of its env ids and of its env class ``<EnvName>Env``:
            CamelCase, parts of a benchmark's group joined by hyphens (``BFCL-Live``; the
            class drops them, ``BFCLLiveEnv``).
        toolkit: import path of its :class:`~toolgym.tools.toolkit.Toolkit` class, whose
            keyword-only arguments are the family's env options.
        versions: the registered versions, oldest first; each keeps its tasks and budget.
        prompting: import path of its LLM prompting defaults
            (:class:`~toolgym.agents.defaults.PromptDefaults`); ``None``: the generic ones.
        profile: import path of its evaluation profile
            (:class:`~toolgym.evaluation.profile.EvalProfile`: headline, suites, table columns,
            benchmarks); ``None``: the defaults.
        metrics: the metrics its checkers report, as reports aggregate them.
        reward: the metric the reward is (``reward_type="success"`` gives 1 or 0 instead).
        service: import path of the simulated HTTP service ``toolgym serve <name>`` runs.
        aliases: other names the command line accepts for the family.
        doc: the env documentation (Description, Tools, Action Space, ..., Arguments); the
            Version History section is added from :attr:`versions` (see :meth:`full_doc`).
        action_mode: the benchmark's protocol, the env's default: ``"program"`` (one action,
            single-step) or ``"call"`` (multi-step, as WebShop).
        render_modes: the env's render modes: ``"ansi"`` (text) for every family, and
            ``"rgb_array"`` for a family whose backend draws its state (``render_rgb()``).
        action_modes: the protocols the env offers (both by default; a conversation env plays
            only ``"call"``: the user answers between steps).
        requires: ``(module, install command)`` pairs: packages outside toolgym's own
            dependencies that its envs read (a benchmark's data). Making an env without one is
            refused with the command; test suites skip its envs, saying so.
        needs: ``(option, what to pass)`` pairs: options an env cannot be made without,
            because only the user has what they give (BFCL's web search: a search backend,
            since toolgym reaches no network). Making an env without one is refused with what
            to pass; suites and the shared contract tests leave such envs out (they cannot
            supply it), and the family tests them with a stand-in of its own.
    """

    name: str
    title: str
    env_name: str
    toolkit: str
    versions: tuple[VersionSpec, ...]
    prompting: str | None = None
    profile: str | None = None
    metrics: tuple[MetricSpec, ...] = F1_METRICS
    reward: str = "f1"
    service: str | None = None
    aliases: tuple[str, ...] = ()
    doc: str = ""
    action_mode: str = "program"
    render_modes: tuple[str, ...] = ("ansi",)
    action_modes: tuple[str, ...] = ("program", "call")
    requires: tuple[tuple[str, str], ...] = ()
    needs: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.action_modes or set(self.action_modes) - {"program", "call"}:
            raise ValueError(
                f"action_modes holds 'program' and/or 'call'; got {self.action_modes!r}"
            )
        if self.action_mode not in self.action_modes:
            raise ValueError(
                f"action_mode is one of the action_modes {self.action_modes!r}; "
                f"got {self.action_mode!r}"
            )
        unknown = set(self.render_modes) - {"ansi", "rgb_array"}
        if "ansi" not in self.render_modes or unknown:
            raise ValueError(
                f"render_modes holds 'ansi' and may add 'rgb_array'; got {self.render_modes!r}"
            )
        if not _SNAKE.match(self.name):
            raise ValueError(f"a family name is snake_case; got {self.name!r}")
        if not _CAMEL.match(self.env_name):
            raise ValueError(
                f"an env name is CamelCase, parts joined by hyphens; got {self.env_name!r}"
            )
        numbers = [v.version for v in self.versions]
        if not numbers or numbers != sorted(set(numbers)):
            raise ValueError(
                f"family {self.name!r} needs versions in increasing order; got {numbers}"
            )
        keys = {m.key for m in self.metrics}
        if self.reward not in keys:
            raise ValueError(f"the reward {self.reward!r} is not one of the family's metrics")

    @property
    def class_name(self) -> str:
        """The env class name (``HomeSearchEnv``)."""
        return f"{self.env_name.replace('-', '')}Env"

    @property
    def latest(self) -> VersionSpec:
        """The newest version."""
        return self.versions[-1]

    def env_id(self, version: int | None = None) -> str:
        """``toolbench/<EnvName>-v<N>`` (the newest version by default)."""
        number = self.latest.version if version is None else version
        return f"{NAMESPACE}/{self.env_name}-v{number}"

    def missing(self) -> list[str]:
        """The install commands of the :attr:`requires` packages that are not installed."""
        import importlib.util

        return [hint for module, hint in self.requires if importlib.util.find_spec(module) is None]

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
