"""The RapidAPI tasks: G1, G2 and G3 instructions with gold call graphs, over the world's library.

Splits (world 0, the default 4,000-API library):

* ``test``: 200 solvable tasks per group and 40 labelled unsolvable variants per group (720);
* ``demo``: 20 solvable tasks and 5 unsolvable ones per group (75), for retrieved
  demonstrations;
* ``train``: unlimited, in any world: task ``train-<k>`` is of group ``G1``, ``G2``, ``G3`` for
  ``k % 3`` = 0, 1, 2, and unsolvable when ``k % 8 == 7``.

See :mod:`.generation` for how tasks are planned and :mod:`.checker` for how they are scored.
"""
