"""Hand-written grammars of the 49 ToolBench categories, and the collection themes.

Each :class:`~.spec.Category` names its resources (entity types with an ``<singular>_id``, typed
fields, search filters and sub-resources), its own operations, the words its tool names are built
from and the topics its tool descriptions speak of. :data:`THEMES` group categories into
collections. :func:`param_spec` finds what a grammar says about a parameter name and
:func:`check_grammars` verifies that every name a grammar uses is known.

>>> len(CATEGORIES), CATEGORY_NAMES[0], CATEGORY_NAMES[-1]
(49, 'Sports', 'Cybersecurity')
"""

from __future__ import annotations

from toolgym.simulators.tool_library.domains import knowledge, media, money, places, tech
from toolgym.simulators.tool_library.domains.common import COMMON_PARAMS, PLACE_PARAMS, PLACES
from toolgym.simulators.tool_library.domains.spec import (
    LEAF_TYPES,
    Category,
    Field,
    Operation,
    ParamSpec,
    Resource,
    SubResource,
    Theme,
    snake,
)
from toolgym.simulators.tool_library.domains.themes import THEMES
from toolgym.simulators.tool_library.domains.wording import API_VERBS

CATEGORY_NAMES: tuple[str, ...] = (
    "Sports",
    "Finance",
    "Data",
    "Entertainment",
    "Travel",
    "Location",
    "Science",
    "Food",
    "Transportation",
    "Music",
    "Business",
    "Visual Recognition",
    "Tools",
    "Text Analysis",
    "Weather",
    "Gaming",
    "SMS",
    "Events",
    "Health and Fitness",
    "Payments",
    "Financial",
    "Translation",
    "Storage",
    "Logistics",
    "Database",
    "Search",
    "Reward",
    "Mapping",
    "Artificial Intelligence/Machine Learning",
    "Email",
    "News/Media",
    "Video/Images",
    "eCommerce",
    "Medical",
    "Devices",
    "Business Software",
    "Advertising",
    "Education",
    "Media",
    "Social",
    "Commerce",
    "Communication",
    "Other",
    "Monitoring",
    "Energy",
    "Jobs",
    "Movies",
    "Cryptography",
    "Cybersecurity",
)
"""ToolBench's 49 category display names, in ToolBench's order."""

_BY_NAME: dict[str, Category] = {
    c.name: c for module in (places, money, media, tech, knowledge) for c in module.CATEGORIES
}

CATEGORIES: tuple[Category, ...] = tuple(_BY_NAME[name] for name in CATEGORY_NAMES)
"""The grammars, in :data:`CATEGORY_NAMES` order."""


def get_category(name: str) -> Category:
    """The grammar of the category called ``name``.

    Raises:
        KeyError: no such category.
    """
    found = _BY_NAME.get(name)
    if found is None:
        raise KeyError(f"expected one of the {len(CATEGORY_NAMES)} category names, got {name!r}")
    return found


def param_spec(category: Category, name: str) -> ParamSpec | None:
    """What ``category`` (else the common parameters) says about parameter ``name``, or ``None``."""
    return category.params.get(name) or COMMON_PARAMS.get(name)


def check_grammars() -> list[str]:
    """The problems of the grammars (empty when every name they use is known).

    Checks that there are 49 categories, that every filter and operation parameter resolves
    (an ``<entity>_id`` always does), that operations start with a known verb, and that themes
    name known categories.
    """
    problems: list[str] = []
    if sorted(_BY_NAME) != sorted(CATEGORY_NAMES):
        problems.append(f"categories: expected {sorted(CATEGORY_NAMES)}, got {sorted(_BY_NAME)}")
    for cat in CATEGORIES:
        used: list[str] = []
        for res in cat.resources:
            used += [name for name, _ in res.filters]
        for op in cat.operations:
            used += [*op.required, *op.optional]
            if op.description.split()[0] not in API_VERBS:
                problems.append(f"{cat.name}: {op.name!r} does not start with a known verb")
        for name in used:
            if not name.endswith("_id") and param_spec(cat, name) is None:
                problems.append(f"{cat.name}: parameter {name!r} is not defined")
        if not cat.brands or not cat.topics or not cat.queries:
            problems.append(f"{cat.name}: expected brands, topics and queries")
    for theme in THEMES:
        unknown = [c for c in theme.categories if c not in _BY_NAME]
        if unknown or not 2 <= len(theme.categories) <= 4:
            problems.append(f"theme {theme.name!r}: unknown {unknown} or not 2-4 categories")
    return problems


__all__ = [
    "CATEGORIES",
    "CATEGORY_NAMES",
    "COMMON_PARAMS",
    "LEAF_TYPES",
    "PLACES",
    "PLACE_PARAMS",
    "THEMES",
    "Category",
    "Field",
    "Operation",
    "ParamSpec",
    "Resource",
    "SubResource",
    "Theme",
    "check_grammars",
    "get_category",
    "param_spec",
    "snake",
]
