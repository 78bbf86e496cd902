"""Environments: every tool family, registered from its spec, assembled into one env class.

:data:`FAMILY_SPECS` is the one table of families. Each entry names a family's declaration
(:class:`~toolgym.envs.spec.FamilySpec`, in ``toolgym/families/<family>/spec.py``); registration, the env
classes, the command line and the test suites are all derived from the declarations. Entry points
are strings and a family's parts are loaded only when an env is made, so ``import toolgym`` stays
cheap.

>>> env_ids()[:2]
['toolbench/HomeSearch-v0', 'toolbench/TripBooking-v0']
>>> env_class(family("home_search")).__name__
'HomeSearchEnv'
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from toolgym.envs.spec import NAMESPACE, FamilySpec, load_ref

FAMILY_SPECS: tuple[str, ...] = (
    "toolgym.families.home_search.spec:SPEC",
    "toolgym.families.trip_booking.spec:SPEC",
    "toolgym.families.openweather.spec:SPEC",
    "toolgym.families.cat_api.spec:SPEC",
    "toolgym.families.google_sheets.spec:SPEC",
    "toolgym.families.virtual_home.spec:SPEC",
    "toolgym.families.web_shop.spec:SPEC",
    "toolgym.families.tabletop.spec:SPEC",
    "toolgym.families.rapid_api.spec:SPEC",
    "toolgym.families.seal_tools.spec:SPEC",
    "toolgym.families.home_search.spec:CHAT_SPEC",
    "toolgym.families.cat_api.spec:CHAT_SPEC",
    "toolgym.families.trip_booking.spec:CHAT_SPEC",
    "toolgym.families.google_sheets.spec:CHAT_SPEC",
    "toolgym.families.web_shop.spec:CHAT_SPEC",
    "toolgym.families.rapid_api.spec:CHAT_SPEC",
    "toolgym.families.bfcl.spec:SIMPLE",
    "toolgym.families.bfcl.spec:MULTIPLE",
    "toolgym.families.bfcl.spec:PARALLEL",
    "toolgym.families.bfcl.spec:PARALLEL_MULTIPLE",
    "toolgym.families.bfcl.spec:IRRELEVANCE",
    "toolgym.families.bfcl.spec:LIVE",
    "toolgym.families.bfcl.turn_spec:MULTI_TURN",
    "toolgym.families.bfcl.memory_spec:MEMORY",
    "toolgym.families.bfcl.web_spec:WEB_SEARCH",
)
"""Every built-in family's declaration (adding a family adds one line here)."""

_REGISTERED: dict[str, FamilySpec] = {}


@functools.cache
def _builtin() -> tuple[FamilySpec, ...]:
    return tuple(load_ref(ref) for ref in FAMILY_SPECS)


def builtin_families() -> tuple[FamilySpec, ...]:
    """The families of :data:`FAMILY_SPECS`, in table order."""
    return _builtin()


ENTRY_POINT_GROUP = "toolgym.families"
"""The entry-point group through which an installed package adds families.

A package declares ``[project.entry-points."toolgym.families"] NAME = "module:SPEC"``, where
``SPEC`` is a :class:`~toolgym.envs.spec.FamilySpec`; ``import toolgym`` then registers its envs in
every process, with no edit to toolgym (``examples/todo_family`` is one).
"""


@functools.cache
def plugin_families() -> tuple[FamilySpec, ...]:
    """The families that installed packages declare in :data:`ENTRY_POINT_GROUP`, by name.

    A declaration that cannot be loaded, is not a ``FamilySpec`` or clashes with a built-in
    family is skipped with a warning that says why: the other envs still register.
    """
    import warnings
    from importlib.metadata import entry_points

    found: dict[str, FamilySpec] = {}
    taken = {n for s in _builtin() for n in (s.name, s.env_name, *s.aliases)}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            spec = point.load()
        except Exception as e:  # a broken plugin is reported, never fatal to import toolgym
            warnings.warn(
                f"toolgym: the family {point.name!r} ({point.value}) could not be loaded: "
                f"{type(e).__name__}: {e}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        problem = (
            f"expected a FamilySpec, got {type(spec).__name__}"
            if not isinstance(spec, FamilySpec)
            else f"its name {spec.name!r}, env name {spec.env_name!r} or an alias is taken"
            if {spec.name, spec.env_name, *spec.aliases} & taken
            else None
        )
        if problem is not None:
            warnings.warn(
                f"toolgym: the family {point.name!r} ({point.value}) is skipped: {problem}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        taken |= {spec.name, spec.env_name, *spec.aliases}
        found[spec.name] = spec
    return tuple(found.values())


def families() -> tuple[FamilySpec, ...]:
    """Every family: the built-in ones, the installed plugins', then :func:`register_family`'s."""
    plugins = plugin_families()
    added = tuple(s for s in _REGISTERED.values() if s not in plugins)
    return (*_builtin(), *plugins, *added)


def family(name: str) -> FamilySpec:
    """The family called ``name`` (or one of its aliases, or its env name).

    Raises:
        KeyError: no such family (the message lists the known ones).
    """
    for spec in families():
        if name in (spec.name, spec.env_name, *spec.aliases):
            return spec
    names = [s.name for s in families()]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise KeyError(f"no family {name!r} (known: {', '.join(names)}){hint}")


@dataclass(frozen=True)
class EnvEntry:
    """One registered env id (derived from the family specs)."""

    name: str
    version: int
    entry_point: str
    max_episode_steps: int
    family: str

    @property
    def id(self) -> str:
        """The full env id, e.g. ``toolbench/HomeSearch-v0``."""
        return f"{NAMESPACE}/{self.name}-v{self.version}"


def env_entries() -> tuple[EnvEntry, ...]:
    """Every env id of every family, in family and version order."""
    return tuple(
        EnvEntry(
            spec.env_name,
            version.version,
            f"toolgym.envs:{spec.class_name}",
            version.max_episode_steps,
            spec.name,
        )
        for spec in families()
        for version in spec.versions
    )


def family_of(env_id: str) -> FamilySpec:
    """The family of a registered env id.

    Raises:
        KeyError: an id no family registers.
    """
    for entry in env_entries():
        if entry.id == env_id:
            return family(entry.family)
    raise KeyError(f"no family registers {env_id!r}")


def _register(spec: FamilySpec) -> None:
    for version in spec.versions:
        env_id = spec.env_id(version.version)
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=f"toolgym.envs:{spec.class_name}",
            max_episode_steps=version.max_episode_steps,
            kwargs={"version": version.version},
            disable_env_checker=False,
        )


def register_envs() -> None:
    """Register every version of every family (idempotent)."""
    for spec in families():
        _register(spec)


def register_family(spec: FamilySpec) -> None:
    """Add a family that is not built in (a plugin, or a family kept in tests) and register it.

    Its env class is then ``toolgym.envs.<EnvName>Env`` in this process, like a built-in one.

    Raises:
        ValueError: another family already has its name or env name.
    """
    for other in families():
        if other is not spec and spec.name in (other.name, other.env_name):
            raise ValueError(f"a family called {spec.name!r} is registered already")
        if other is not spec and spec.env_name == other.env_name:
            raise ValueError(f"a family with env name {spec.env_name!r} is registered already")
    _REGISTERED[spec.name] = spec
    _register(spec)


def env_ids() -> list[str]:
    """Ids of every toolgym env, in table order (every version of every family)."""
    return [entry.id for entry in env_entries()]


def standalone(env_ids: Iterable[str]) -> list[str]:
    """The ids of ``env_ids`` that ``gym.make`` builds with no option of the user's.

    An env whose family needs one (``FamilySpec.needs``: BFCL's web search needs a search
    backend) is left out; the benchmark scripts, which build every env, iterate these.
    """
    return [env_id for env_id in env_ids if not family_of(env_id).needs]


def latest_env_ids() -> list[str]:
    """The newest version of each family, in table order: what runs when no env is named.

    >>> latest_env_ids()[:2]
    ['toolbench/HomeSearch-v0', 'toolbench/TripBooking-v0']
    """
    return [spec.env_id(spec.versions[-1].version) for spec in families()]


@functools.cache
def env_class(spec: FamilySpec) -> type[Any]:
    """The env class of a family: :class:`~toolgym.envs.tool_env.ToolEnv` with its spec and docs."""
    from toolgym.envs.tool_env import ToolEnv

    return type(
        spec.class_name,
        (ToolEnv,),
        {
            "family": spec,
            "metadata": {**ToolEnv.metadata, "render_modes": list(spec.render_modes)},
            "__doc__": spec.full_doc(),
            "__module__": __name__,
            "__qualname__": spec.class_name,
        },
    )


def __getattr__(name: str) -> Any:
    """Env classes by name (``toolgym.envs.HomeSearchEnv``): the registry's entry points."""
    if name == "ENV_TABLE":
        return env_entries()
    for spec in families():
        if name == spec.class_name:
            return env_class(spec)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FAMILY_SPECS",
    "NAMESPACE",
    "EnvEntry",
    "env_class",
    "env_entries",
    "env_ids",
    "families",
    "family",
    "register_envs",
    "register_family",
    "standalone",
]
