"""Writing gold programs by acting them out in a home.

A :class:`Planner` executes each step it writes in its own copy of the home, so the program it
returns is, by construction, strictly executable from the state it started in; a step that cannot
run raises :class:`~toolgym.families.virtual_home.world.ActionFailed` and the activity is not made
for that home. Its moves are the ones people write in household plans: walk to the room, walk to
the object, find it, open what it is in, grab it.
"""

from __future__ import annotations

from toolgym.families.virtual_home.world import BY_NAME, Household, Step, execute, to_call


class Planner:
    """Acts out and records a program in a copy of ``house``."""

    def __init__(self, house: Household) -> None:
        self.house = house.copy()
        self.lines: list[str] = []

    def do(self, action: str, *objects: str) -> None:
        """Run and record one step."""
        step = Step(BY_NAME[action], objects)
        execute(self.house, step)
        self.lines.append(to_call(step))

    def room_of(self, obj: str) -> str:
        """The class of the room the object ``obj`` resolves to is in."""
        house = self.house
        room = house.graph.room_of(house.resolve(obj))
        assert room is not None
        return house.name(room)

    def stand(self) -> None:
        """Stand up if sitting or lying."""
        if self.house.posture() is not None:
            self.do("StandUp")

    def go(self, obj: str) -> None:
        """Walk to the object's room (unless there already), then to the object."""
        self.stand()
        room = self.room_of(obj)
        if self.house.name(self.house.room) != room:
            self.do("WalkTo", room)
        self.do("WalkTo", obj)

    def reach(self, obj: str) -> str | None:
        """Go to the object and find it, opening what holds it if that is closed; what was opened."""
        self.go(obj)
        self.do("Find", obj)
        box = self.house.container_closed(self.house.resolve(obj))
        if box is None:
            return None
        self.do("Open", self.house.name(box))
        return self.house.name(box)

    def fetch(self, obj: str, close_after: bool = False) -> None:
        """Reach the object and grab it (closing what it was in, if asked)."""
        box = self.reach(obj)
        self.do("Grab", obj)
        if box is not None and close_after:
            self.do("Close", box)

    def put_in(self, obj: str, container: str, close_after: bool = True) -> None:
        """Take a held object to a container, open it if needed, put the object in."""
        self.go(container)
        node = self.house.graph.nodes[self.house.resolve(container)]
        opened = "CLOSED" in node.states
        if opened:
            self.do("Open", container)
        self.do("PutIn", obj, container)
        if opened and close_after:
            self.do("Close", container)

    def put_on(self, obj: str, surface: str) -> None:
        """Take a held object to a surface and put it there."""
        self.go(surface)
        self.do("Put", obj, surface)

    def switch_on(self, obj: str) -> None:
        """Reach a device, plug it in if it is unplugged, switch it on."""
        self.reach(obj)
        if "PLUGGED_OUT" in self.house.graph.nodes[self.house.resolve(obj)].states:
            self.do("PlugIn", obj)
        self.do("SwitchOn", obj)

    def switch_off(self, obj: str) -> None:
        """Go to a device and switch it off."""
        self.go(obj)
        self.do("SwitchOff", obj)

    def sit(self, seat: str, lie: bool = False) -> None:
        """Go to a seat and sit (or lie) on it."""
        self.go(seat)
        self.do("LieOn" if lie else "SitOn", seat)

    def program(self) -> str:
        """The program written so far."""
        return "\n".join(self.lines)
