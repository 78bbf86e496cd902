"""The web shop tasks: goals made from the catalog, and the expert's trajectories as golds and demos.

A task record is ``prompt`` (the goal's instruction), ``completion`` (the expert's actions, one per
line) and ``setup: {"goal": {"asin": ..., "options": {...}}}`` (the product the goal was made
from and the options it asks for; the goal is made from them as the catalog's goals are). A
record whose setup holds a whole goal (its instruction, attributes, options and price cap) plays
that goal.

Splits, of the 1,000-product catalog of world 0:

* ``test``: 100 goals, the first distinct ones of the seeded goal order;
* ``demo``: the expert's trajectories for the next goals: 1,500 of them in ``-v0`` (the long set)
  and, in ``-v1``, the 200 shortest of those (the short set);
* ``train``: unlimited, any goal of any world's catalog but the test and demo ones.

:func:`demo_steps` turns a trajectory into the (page, action) pairs the paper's prompts show,
with the results pages cut to the product the expert opens for the short set.
"""

from toolgym.lazy import lazy_package

# The suite and its helpers load on first use: the family's declaration imports this package's
# light modules (its metrics) without them.
__getattr__, __dir__ = lazy_package(__name__, "suite")
