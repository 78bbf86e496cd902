"""The household tasks: activities with end conditions and gold programs, in the benchmark's homes.

A task record is the original's (``prompt``: the activity's title, ``completion``: gold programs of
``Agent`` lines) plus ``setup: {"home": k, "states": {...}}`` (the home it plays in and the states
it presupposes there) and the meta keys ``description`` (the goal in words), ``conditions`` (its
end conditions, see :mod:`toolgym.families.virtual_home.world.conditions`) and ``activity`` (its
kind). A record without a
``setup`` (an original file) plays in home 0, prepared with the states its first gold program
presupposes.

Splits:

* ``test`` (100 activities) and ``demo`` (83 activities, the demonstrations): distinct activities
  in the seven homes of world 0, fixed by seed;
* ``train``: unlimited; any activity in any home of any world, never a test or demo title.

:func:`load_plans` reads language-planner's plan files (``available_examples.json``: a JSON list
of ``"Task: ...\\nStep 1: ..."`` strings), for use as tasks (write them with
:func:`~toolgym.benchmarks.tasks.write_task_file` and pass ``task_file=``) or as an agent's
demonstrations (``LLMAgent(..., demos=tasks)``).
"""

from toolgym.lazy import lazy_package

# The suite and its helpers load on first use: the family's declaration imports this package's
# light modules (its metrics) without them.
__getattr__, __dir__ = lazy_package(__name__, "suite")
