"""The RapidAPI toolkit: a tool library, its functions, its service and its retriever.

The library is generated from the world seed (``num_apis`` APIs, 4,000 by default) or read
from a ToolBench tools folder or query file (``library``); responses come from the library's service,
which answers from a fixture cache first (``response_cache``: a StableToolBench cache folder or
a JSON file saved by :class:`~toolgym.simulators.tool_library.service.ResponseCache`) and
synthesizes the rest. Libraries, functions and retrievers are built once per process and shared
by every environment over the same world.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from toolgym.families.rapid_api.backend import RapidApiBackend
from toolgym.families.rapid_api.functions import SCHEMA_STYLES, ApiTool, library_tools
from toolgym.families.rapid_api.language import FunctionCallLanguage
from toolgym.families.rapid_api.status import OBSERVATION_CHARS
from toolgym.families.rapid_api.world.loaders import load_response_cache, load_toolbench_tools
from toolgym.families.rapid_api.world.query_files import load_query_file
from toolgym.simulators.tool_library.generator import generate_library
from toolgym.simulators.tool_library.model import ToolLibrary
from toolgym.simulators.tool_library.retriever import ApiRetriever
from toolgym.simulators.tool_library.service import ResponseCache, ToolService
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Toolkit

DEFAULT_NUM_APIS = 4000
"""The size of the generated library the stored tasks belong to."""


@functools.lru_cache(maxsize=8)
def world_library(world_seed: int, num_apis: int, library_dir: str | None) -> ToolLibrary:
    """The library of a world: generated, or read from a ToolBench tools folder."""
    if library_dir is not None:
        if Path(library_dir).is_file():  # a query file: the docs it carries inline
            return load_query_file(library_dir)[1]
        return load_toolbench_tools(library_dir)
    if num_apis <= DEFAULT_NUM_APIS:
        return generate_library(world_seed, num_apis)
    # A larger world keeps the default world's tools (the stored tasks' tools) and adds the
    # rest of the larger library's.
    base = generate_library(world_seed, DEFAULT_NUM_APIS)
    larger = generate_library(world_seed, num_apis)
    extra = [t for t in larger.tools[len(base.tools) :] if t.standard_name not in base]
    return ToolLibrary([*base.tools, *extra])


@functools.lru_cache(maxsize=8)
def world_functions(world_seed: int, num_apis: int, library_dir: str | None, style: str) -> ToolSet:
    """Every function of a world's library (plus ``Finish`` and ``retrieve_apis``)."""
    return library_tools(world_library(world_seed, num_apis, library_dir), style)


def api_document(tool: ApiTool) -> str:
    """The words the retriever indexes for a function."""
    params = " ".join(p.name for p in tool.params)
    return f"{tool.tool_name} {tool.category} {tool.api_name} {tool.api_description} {params}"


@functools.lru_cache(maxsize=8)
def world_retriever(
    world_seed: int, num_apis: int, library_dir: str | None
) -> tuple[ApiRetriever, tuple[str, ...]]:
    """The retriever over a world's functions, and the function name of each document."""
    tools = [t for t in world_functions(world_seed, num_apis, library_dir, "strict")]
    apis = [t for t in tools if isinstance(t, ApiTool)]
    return ApiRetriever([api_document(t) for t in apis]), tuple(t.name for t in apis)


@functools.lru_cache(maxsize=8)
def _fixtures(path: str, world_seed: int, num_apis: int, library_dir: str | None) -> Any:
    source = Path(path)
    if source.is_dir():
        return load_response_cache(source, world_library(world_seed, num_apis, library_dir))
    return ResponseCache.load(source)


class RapidApiToolkit(Toolkit):
    """The library's functions and service (see the module docstring).

    Args:
        world_seed: seed of the generated library and of synthesized responses.
        num_apis: the generated library's size (the stored tasks need the default, 4,000;
            16,464 is ToolBench's size).
        library: a ToolBench ``tools/`` folder, or a ToolBench or StableToolBench query file
            (whose inline docs make the library), to use instead of a generated library.
        response_cache: fixtures answered before any synthesis (a StableToolBench cache folder
            or a saved ``ResponseCache`` JSON file).
        schema_style: ``"strict"`` JSON Schema or ToolBench's ``"upstream"`` shape.
        observation_chars: where an API's observation is cut (ToolBench: 1,024).
    """

    name = "rapid_api"

    def __init__(
        self,
        world_seed: int = 0,
        *,
        num_apis: int = DEFAULT_NUM_APIS,
        library: str | None = None,
        response_cache: str | None = None,
        schema_style: str = "strict",
        observation_chars: int = OBSERVATION_CHARS,
    ) -> None:
        super().__init__(world_seed)
        if isinstance(num_apis, bool) or not isinstance(num_apis, int) or num_apis < 50:
            raise ValueError(f"num_apis must be an int of at least 50; got {num_apis!r}")
        if schema_style not in SCHEMA_STYLES:
            raise ValueError(f"schema_style must be one of {SCHEMA_STYLES}; got {schema_style!r}")
        if not isinstance(observation_chars, int) or observation_chars < 64:
            raise ValueError(
                f"observation_chars must be an int of at least 64; got {observation_chars!r}"
            )
        self.num_apis = num_apis
        self.library_dir = None if library is None else str(library)
        self.user_world = library is not None
        self.observation_chars = observation_chars
        self._key = (world_seed, num_apis, self.library_dir)
        self.library = world_library(*self._key)
        self.tools = world_functions(*self._key, schema_style)
        fixtures = None
        if response_cache is not None:
            fixtures = _fixtures(str(response_cache), *self._key)
        # a loaded library's documented example ids name records its list responses hold
        self.service = ToolService(
            self.library, seed=world_seed, fixtures=fixtures, entities=library is not None
        )

    def retrieve(self, query: str, top_k: int) -> list[str]:
        """The names of the ``top_k`` functions of the whole library that best match ``query``."""
        retriever, names = world_retriever(*self._key)
        return [names[i] for i in retriever.search(query, top_k)]

    def language(self) -> FunctionCallLanguage:
        """Function calls, as JSON or ToolBench's text."""
        return FunctionCallLanguage()

    def new_backend(self) -> RapidApiBackend:
        """A backend over the library's service."""
        return RapidApiBackend(self.service, self.tools, self.retrieve, self.observation_chars)
