"""A household: one home's scene graph with the character in it, and how names find objects.

:class:`Household` answers the questions the action rules ask (is the character close to this,
facing that, holding what?), resolves a class name to an object of the home, and places an object
the home lacks where its class goes (the catalog's placements: a cup on the kitchen counter, else
in the kitchen cabinet, ...; failing all of them, on the floor of the character's room), so that a
plan naming it still runs. Room names a home lacks resolve to a room that stands in for them
(a home without a home office has its desk in the living room or the bedroom).

The predicates follow the evolving graph's: ``close(c, o)`` holds for an edge ``c CLOSE o`` or
for some ``n`` with ``c CLOSE n`` and (``n CLOSE o`` or ``o ON n``); ``facing`` likewise through
one intermediate node. Body parts, what the character holds or wears, and the floor, walls and
ceiling of its room are always close.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolgym.families.virtual_home.world.classes import CLASSES, ROOMS, canonical
from toolgym.families.virtual_home.world.graph import CHARACTER, SceneGraph
from toolgym.families.virtual_home.world.homes import make_home, new_node

HANDS = ("HOLDS_RH", "HOLDS_LH")

ROOM_STAND_INS: dict[str, tuple[str, ...]] = {
    "home_office": ("home_office", "living_room", "bedroom"),
    "dining_room": ("dining_room", "kitchen", "living_room"),
    "living_room": ("living_room",),
    "entrance_hall": ("living_room",),
}
"""The rooms that stand in for a room a home lacks, in order."""

ALWAYS_CLOSE = frozenset({"floor", "wall", "ceiling"})


class ActionFailed(Exception):
    """A step that cannot run here.

    Attributes:
        kind: ``"precondition"`` (the world does not allow it now), ``"unknown_object"`` (no such
            class) or ``"not_allowed"`` (the action does not take this kind of object).
        message: what was expected and what is the case.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class Household:
    """One home's state and the character's view of it.

    Args:
        home: the home's seed (``0`` to ``6`` are the benchmark's homes).
        graph: a scene graph to start from instead of home ``home``'s.
    """

    def __init__(self, home: int = 0, graph: SceneGraph | None = None) -> None:
        self.home = home
        self.graph = graph if graph is not None else make_home(home)

    # -- state ----------------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The state as JSON data (the home's seed and its scene graph)."""
        return {"home": self.home, "graph": self.graph.to_data()}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Household:
        """A household from :meth:`to_data`'s form."""
        return cls(int(data["home"]), SceneGraph.from_data(data["graph"]))

    def copy(self) -> Household:
        """An independent copy."""
        return Household(self.home, self.graph.copy())

    # -- the character --------------------------------------------------------------------------
    @property
    def room(self) -> int:
        """The room the character is in."""
        room = self.graph.room_of(CHARACTER)
        assert room is not None, "the character is in no room"
        return room

    def name(self, node_id: int) -> str:
        """A node's class name."""
        return self.graph.nodes[node_id].class_name

    def held(self) -> list[int]:
        """What the character holds, right hand first."""
        return [o for hand in HANDS for o in sorted(self.graph.targets(CHARACTER, hand))]

    def holding(self, node_id: int) -> bool:
        """Whether the character holds ``node_id``."""
        g = self.graph
        return g.has(CHARACTER, HANDS[0], node_id) or g.has(CHARACTER, HANDS[1], node_id)

    def free_hand(self) -> str | None:
        """``HOLDS_RH`` if the right hand is free, else ``HOLDS_LH`` if the left is, else ``None``."""
        for hand in HANDS:
            if not self.graph.targets(CHARACTER, hand):
                return hand
        return None

    def posture(self) -> str | None:
        """``SITTING``, ``LYING`` or ``None`` (standing)."""
        states = self.graph.nodes[CHARACTER].states
        return next((s for s in ("SITTING", "LYING") if s in states), None)

    def worn(self) -> list[int]:
        """The clothes the character wears."""
        return sorted(self.graph.sources(CHARACTER, "ON") - {CHARACTER})

    # -- predicates -----------------------------------------------------------------------------
    def close(self, node_id: int) -> bool:
        """Whether the character is close to ``node_id`` (see the module docstring)."""
        g = self.graph
        node = g.nodes[node_id]
        if "BODY_PART" in node.properties or self.holding(node_id) or node_id == CHARACTER:
            return True
        if g.has(node_id, "ON", CHARACTER):
            return True
        if node.class_name in ALWAYS_CLOSE and g.room_of(node_id) == self.room:
            return True
        near = g.targets(CHARACTER, "CLOSE")
        if node_id in near:
            return True
        # close to something the character is close to, or on it
        return not (
            near.isdisjoint(g.sources(node_id, "CLOSE"))
            and near.isdisjoint(g.targets(node_id, "ON"))
        )

    def facing(self, node_id: int) -> bool:
        """Whether the character faces ``node_id``, directly or through what it faces."""
        g = self.graph
        facing = g.targets(CHARACTER, "FACING")
        return node_id in facing or any(g.has(n, "FACING", node_id) for n in facing)

    def container_closed(self, node_id: int) -> int | None:
        """The closed container ``node_id`` is inside (not a room), if any."""
        g = self.graph
        for target in g.targets(node_id, "INSIDE"):
            node = g.nodes[target]
            if node.category != "Rooms" and "CLOSED" in node.states:
                return target
        return None

    # -- names ----------------------------------------------------------------------------------
    def class_of(self, name: str) -> str:
        """The catalogued class a name stands for.

        Raises:
            ActionFailed: ``unknown_object`` for a name of no class.
        """
        cls = canonical(name)
        if cls is None:
            shown = name if len(name) <= 60 else name[:57] + "..."
            raise ActionFailed("unknown_object", f"there is no object called {shown!r} in homes")
        return cls

    def resolve(self, name: str, *, avoid_held: bool = False) -> int:
        """The object ``name`` means here, placing one if the home has none.

        The instance the character holds (or wears) wins, then the one the program is bound to (see
        :meth:`bind`), then one close to the character, then one in its room, then the first of
        the home; a room the home lacks resolves to its stand-in. Once the program has walked
        into a room by name, an instance in that room wins over a bound one elsewhere ("walk to
        the bedroom, switch on the light" means the bedroom's light). With ``avoid_held`` (finding
        or grabbing: what the character holds is not what it looks for), held instances come last.

        Raises:
            ActionFailed: ``unknown_object`` for a name of no class.
        """
        cls = self.class_of(name)
        if cls in ROOMS:
            return self._room(cls)
        candidates = self.graph.of_class(cls)
        if not candidates:
            return self.place(cls)
        return min(candidates, key=self._preference(cls, avoid_held))

    def ranked(self, name: str) -> list[int]:
        """The instances ``name`` may mean here, best first (:meth:`resolve`'s order)."""
        cls = self.class_of(name)
        if cls in ROOMS:
            return [self._room(cls)]
        return sorted(self.graph.of_class(cls), key=self._preference(cls))

    def _preference(
        self, cls: str, avoid_held: bool = False
    ) -> Callable[[int], tuple[bool, bool, bool, bool, int]]:
        bound = self.graph.bound.get(cls)
        room = self.room
        if bound is not None and self._entered_room() == room != self.graph.room_of(bound):
            bound = None  # the program walked into this room: its own instance is meant
        worn = set(self.worn())
        return lambda i: (
            (self.holding(i) or i in worn) == avoid_held,
            i != bound,
            not self.close(i),
            self.graph.room_of(i) != room,
            i,
        )

    def _entered_room(self) -> int | None:
        """The room the last walk to a room by name went to, if any."""
        for action, *names in reversed(self.graph.history):
            if action in ("WalkTo", "RunTo", "Find") and names and names[0] in ROOMS:
                return self._room(names[0])
        return None

    def bind(self, names: Sequence[str]) -> None:
        """Bind each class a whole program names to the instance that suits the program best.

        A program (like a VirtualHome script with instance ids) means one chair: the one at the
        desk when it also names the computer. Each class with several instances is bound to the
        instance with the most of the program's other classes around it (close to it, on or in
        it, under it) or in a room the program names; ties keep the usual choice.
        """
        classes: list[str] = []
        for name in names:
            cls = canonical(name)
            if cls is not None and cls not in classes:
                classes.append(cls)
        mentioned = set(classes)
        rooms = {self._room(c) for c in classes if c in ROOMS}
        g = self.graph
        for cls in classes:
            candidates = g.of_class(cls)
            if cls in ROOMS or len(candidates) < 2:
                continue

            def fit(i: int, cls: str = cls) -> int:
                around = g.targets(i, "CLOSE") | g.targets(i, "ON") | g.targets(i, "INSIDE")
                around = around | g.sources(i, "ON") | g.sources(i, "INSIDE")
                found = {g.nodes[n].class_name for n in around} & mentioned
                return len(found - {cls}) + (g.room_of(i) in rooms)

            scores = {i: fit(i) for i in candidates}
            best = max(candidates, key=lambda i: (scores[i], -i))
            if scores[best] > 0:
                g.bound[cls] = best

    def _room(self, cls: str) -> int:
        for stand_in in ROOM_STAND_INS.get(cls, (cls,)):
            found = self.graph.of_class(stand_in)
            if found:
                return found[0]
        return self.place(cls)

    def place(self, cls: str) -> int:
        """Add an object of ``cls`` where its class goes (see the module docstring); its id."""
        g = self.graph
        node = new_node(g, cls)
        if CLASSES[cls].category == "Rooms":
            return node.id
        room = self.room
        for relation, destination in CLASSES[cls].places:
            hosts = g.of_class(destination)
            if not hosts:
                continue
            host = min(hosts, key=lambda i: (g.room_of(i) != room, i))
            g.add_edge(node.id, relation, host)
            g.add_edge(node.id, "INSIDE", g.room_of(host) or room)
            g.add_close(node.id, host)
            for peer in list(g.targets(host, "CLOSE")):
                g.add_close(node.id, peer)
            return node.id
        g.add_edge(node.id, "INSIDE", room)
        floors = [f for f in g.of_class("floor") if g.room_of(f) == room]
        if floors and CLASSES[cls].places:
            g.add_edge(node.id, "ON", floors[0])
        return node.id

    # -- what the character perceives ---------------------------------------------------------
    def describe(self, limit: int = 12) -> str:
        """Where the character is, what is close by, what it holds and wears."""
        g = self.graph
        room = self.name(self.room)
        near = sorted(g.targets(CHARACTER, "CLOSE"))
        seen: dict[str, None] = {}  # the labels in order (an object met again adds nothing)
        visited = {CHARACTER}
        for n in near:
            for o in sorted({n} | g.targets(n, "CLOSE") | g.sources(n, "ON")):
                if o not in visited:
                    visited.add(o)
                    if g.nodes[o].category != "Rooms":
                        seen.setdefault(self._label(o))
        parts = [f"You are in the {room}"]
        posture = self.posture()
        if posture:
            seat = [self.name(s) for s in g.targets(CHARACTER, "ON")]
            parts[0] += f", {posture.lower()} on the {seat[0]}" if seat else f", {posture.lower()}"
        if near:
            parts.append(f"next to the {self._label(near[0])}")
        text = ", ".join(parts) + "."
        if seen:
            more = f" and {len(seen) - limit} more" if len(seen) > limit else ""
            text += f" Close by: {', '.join(list(seen)[:limit])}{more}."
        held = self.held()
        text += (
            f" You hold: {', '.join(self._label(o) for o in held)}."
            if held
            else " Your hands are empty."
        )
        worn = self.worn()
        if worn:
            text += f" You wear: {', '.join(self.name(o) for o in worn)}."
        return text

    def _label(self, node_id: int) -> str:
        node = self.graph.nodes[node_id]
        shown = [s.lower().replace("_", " ") for s in sorted(node.states) if s not in ("CLEAN",)]
        return f"{node.class_name} ({', '.join(shown)})" if shown else node.class_name
