"""The scene graph: nodes with classes, properties and states, and typed edges between them.

It keeps VirtualHome's evolving-graph JSON schema (:meth:`SceneGraph.to_data`): ``nodes`` are
``{id, class_name, category, properties, states}`` and ``edges`` are
``{from_id, relation_type, to_id}`` with the relations ``ON``, ``INSIDE``, ``CLOSE``, ``FACING``,
``HOLDS_RH`` and ``HOLDS_LH``. The character is node :data:`CHARACTER` (class ``character``).

Three entries beyond that schema make a state complete: ``supports``, where each object the
character grabbed was taken from (for putting it back); ``history``, the actions that ran (goal
conditions such as "the novel was read" look at it); and ``bound``, the instance a whole
program means by a class name (see ``Household.bind``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

CHARACTER = 1
"""The id of the character node."""

RELATIONS = ("ON", "INSIDE", "CLOSE", "FACING", "HOLDS_RH", "HOLDS_LH")
"""The edge relations of the world."""

STATES = (
    "CLOSED",
    "OPEN",
    "ON",
    "OFF",
    "SITTING",
    "LYING",
    "DIRTY",
    "CLEAN",
    "PLUGGED_IN",
    "PLUGGED_OUT",
)
"""The node states of the world."""


@dataclass(slots=True)
class Node:
    """One room, object or the character."""

    id: int
    class_name: str
    category: str
    properties: frozenset[str]
    states: set[str] = field(default_factory=set)

    def to_data(self) -> dict[str, Any]:
        """The node in VirtualHome's JSON schema."""
        return {
            "id": self.id,
            "class_name": self.class_name,
            "category": self.category,
            "properties": sorted(self.properties),
            "states": sorted(self.states),
        }


class SceneGraph:
    """Nodes and edges, indexed both ways (see the module docstring)."""

    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        self.by_class: dict[str, list[int]] = {}
        self._out: dict[int, dict[str, set[int]]] = {}
        self._in: dict[int, dict[str, set[int]]] = {}
        # Copy on write: a copy shares each node's edge sets until one of them changes; these
        # hold the nodes whose edges (leaving, reaching) this graph alone holds.
        self._own_out: set[int] = set()
        self._own_in: set[int] = set()
        self.supports: dict[int, tuple[str, int]] = {}
        self.history: list[tuple[str, ...]] = []
        self.bound: dict[str, int] = {}

    # -- nodes ----------------------------------------------------------------------------------
    def add_node(self, node: Node) -> Node:
        """Add ``node`` (its id must be new)."""
        if node.id in self.nodes:
            raise ValueError(f"node id {node.id} is taken by {self.nodes[node.id].class_name}")
        self.nodes[node.id] = node
        self.by_class.setdefault(node.class_name, []).append(node.id)
        self._out[node.id] = {}
        self._in[node.id] = {}
        self._own_out.add(node.id)
        self._own_in.add(node.id)
        return node

    def next_id(self) -> int:
        """An unused node id."""
        return max(self.nodes, default=0) + 1

    def of_class(self, class_name: str) -> list[int]:
        """Ids of the nodes of ``class_name``, oldest first."""
        return self.by_class.get(class_name, [])

    def rooms(self) -> Iterator[Node]:
        """The room nodes."""
        return (n for n in self.nodes.values() if n.category == "Rooms")

    # -- edges ----------------------------------------------------------------------------------
    def add_edge(self, a: int, relation: str, b: int) -> None:
        """Add ``a -relation-> b``."""
        out = self._out[a] if a in self._own_out else self._owned_out(a)
        into = self._in[b] if b in self._own_in else self._owned_in(b)
        out.setdefault(relation, set()).add(b)
        into.setdefault(relation, set()).add(a)

    def add_close(self, a: int, b: int) -> None:
        """``CLOSE`` both ways."""
        if a != b:
            self.add_edge(a, "CLOSE", b)
            self.add_edge(b, "CLOSE", a)

    def remove_edge(self, a: int, relation: str, b: int) -> None:
        """Remove ``a -relation-> b`` if it is there."""
        if b in self._out[a].get(relation, _EMPTY):
            self._owned_out(a)[relation].discard(b)
            self._owned_in(b).get(relation, _EMPTY).discard(a)

    def remove_from(self, a: int, relations: Iterable[str]) -> None:
        """Remove every edge of these relations that leaves ``a``."""
        into, own_in = self._in, self._own_in
        for relation in relations:
            if self._out[a].get(relation):
                targets = self._owned_out(a)[relation]
                for b in list(targets):
                    targets.discard(b)
                    edges = into[b] if b in own_in else self._owned_in(b)
                    edges.get(relation, _EMPTY).discard(a)

    def remove_to(self, b: int, relations: Iterable[str]) -> None:
        """Remove every edge of these relations that reaches ``b``."""
        out, own_out = self._out, self._own_out
        for relation in relations:
            if self._in[b].get(relation):
                sources = self._owned_in(b)[relation]
                for a in list(sources):
                    sources.discard(a)
                    edges = out[a] if a in own_out else self._owned_out(a)
                    edges.get(relation, _EMPTY).discard(b)

    def _owned_out(self, a: int) -> dict[str, set[int]]:
        """The edges leaving ``a``, this graph's own to change (copied first if shared)."""
        if a not in self._own_out:
            self._out[a] = {r: set(t) for r, t in self._out[a].items()}
            self._own_out.add(a)
        return self._out[a]

    def _owned_in(self, b: int) -> dict[str, set[int]]:
        """The edges reaching ``b``, this graph's own to change (copied first if shared)."""
        if b not in self._own_in:
            self._in[b] = {r: set(s) for r, s in self._in[b].items()}
            self._own_in.add(b)
        return self._in[b]

    def targets(self, a: int, relation: str) -> set[int]:
        """Nodes ``b`` with ``a -relation-> b`` (do not modify the set)."""
        return self._out[a].get(relation, _EMPTY)

    def sources(self, b: int, relation: str) -> set[int]:
        """Nodes ``a`` with ``a -relation-> b`` (do not modify the set)."""
        return self._in[b].get(relation, _EMPTY)

    def has(self, a: int, relation: str, b: int) -> bool:
        """Whether ``a -relation-> b``."""
        return b in self._out[a].get(relation, _EMPTY)

    def room_of(self, node_id: int) -> int | None:
        """The room a node is in (a room is in itself)."""
        if self.nodes[node_id].category == "Rooms":
            return node_id
        for target in self.targets(node_id, "INSIDE"):
            if self.nodes[target].category == "Rooms":
                return target
        return None

    def edges(self) -> list[tuple[int, str, int]]:
        """Every edge, sorted."""
        return sorted(
            (a, relation, b)
            for a, by_relation in self._out.items()
            for relation, targets in by_relation.items()
            for b in targets
        )

    # -- plain data -----------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The graph as JSON data (VirtualHome's schema plus ``supports`` and ``history``)."""
        return {
            "nodes": [self.nodes[i].to_data() for i in sorted(self.nodes)],
            "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in self.edges()],
            "supports": {str(k): list(v) for k, v in sorted(self.supports.items())},
            "history": [list(h) for h in self.history],
            "bound": dict(sorted(self.bound.items())),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SceneGraph:
        """A graph from :meth:`to_data`'s form (or a plain VirtualHome scene graph).

        Raises:
            ValueError: a node or edge that does not fit the schema (naming it).
        """
        graph = cls()
        try:
            for raw in data["nodes"]:
                graph.add_node(
                    Node(
                        int(raw["id"]),
                        str(raw["class_name"]),
                        str(raw.get("category", "Props")),
                        frozenset(raw.get("properties", ())),
                        set(raw.get("states", ())),
                    )
                )
            for raw in data["edges"]:
                a, relation, b = int(raw["from_id"]), str(raw["relation_type"]), int(raw["to_id"])
                if a not in graph.nodes or b not in graph.nodes:
                    raise ValueError(f"edge {raw} joins a node that is not in the graph")
                graph.add_edge(a, relation, b)
            for key, (relation, support) in data.get("supports", {}).items():
                graph.supports[int(key)] = (str(relation), int(support))
            graph.history = [tuple(str(x) for x in h) for h in data.get("history", ())]
            graph.bound = {str(k): int(v) for k, v in data.get("bound", {}).items()}
        except (KeyError, TypeError) as e:
            raise ValueError(
                f"a scene graph needs nodes and edges in VirtualHome's form: {e}"
            ) from e
        return graph

    def copy(self) -> SceneGraph:
        """A deep copy (its edges copied node by node when first changed, in either graph)."""
        other = SceneGraph()
        other.nodes = {
            i: Node(n.id, n.class_name, n.category, n.properties, set(n.states))
            for i, n in self.nodes.items()
        }
        other.by_class = {k: list(v) for k, v in self.by_class.items()}
        # the edges are shared, node by node, until either graph changes them
        other._out, other._in = dict(self._out), dict(self._in)
        self._own_out.clear()
        self._own_in.clear()
        other.supports = dict(self.supports)
        other.history = list(self.history)
        other.bound = dict(self.bound)
        return other


_EMPTY: set[int] = set()
