"""A symbolic household simulator in the spirit of VirtualHome's evolving graph.

* :mod:`.classes`: the object classes (category, properties, where a missing one goes);
* :mod:`.graph`: the scene graph, in VirtualHome's JSON schema;
* :mod:`.homes`: homes generated from a seed (seven are the benchmark's);
* :mod:`.household`: a home with the character in it, and how names find objects;
* :mod:`.actions` and :mod:`.script`: the 40 actions and their three spellings;
* :mod:`.executor`: each action's preconditions and effects;
* :mod:`.plans`: whole programs, and the states a plan presupposes;
* :mod:`.conditions`: goal conditions on a final state.
"""

from __future__ import annotations

from toolgym.families.virtual_home.world.actions import ACTIONS, BY_NAME, ActionTemplate
from toolgym.families.virtual_home.world.executor import execute
from toolgym.families.virtual_home.world.homes import HOMES, make_home
from toolgym.families.virtual_home.world.household import ActionFailed, Household
from toolgym.families.virtual_home.world.plans import (
    RunResult,
    prepare,
    presupposed_states,
    run_steps,
)
from toolgym.families.virtual_home.world.script import (
    Plan,
    ScriptError,
    Step,
    from_call,
    from_phrase,
    from_script,
    parse_plan,
    program_steps,
    to_call,
    to_phrase,
    to_script,
)

__all__ = [
    "ACTIONS",
    "BY_NAME",
    "HOMES",
    "ActionFailed",
    "ActionTemplate",
    "Household",
    "Plan",
    "RunResult",
    "ScriptError",
    "Step",
    "execute",
    "from_call",
    "from_phrase",
    "from_script",
    "make_home",
    "parse_plan",
    "prepare",
    "presupposed_states",
    "program_steps",
    "run_steps",
    "to_call",
    "to_phrase",
    "to_script",
]
