"""The tabletop tasks: 15 templates in seeded scenes, Code-as-Policies prompts, checked golds.

A task record keeps the original's fields: ``prompt`` is the top-level query as Code as Policies
writes it (``objects = [...]`` then ``# <instruction>.``), ``completion`` a gold program,
``setup`` the scene config (``block_list``, ``bowl_list``, ``position_dict``), and the meta fields
``template`` (the original's ``tester_id``), ``configs_id``, ``instruction`` and
``instruction_vars_dict`` (the attributes, plus the facts of the starting scene the check needs).

Splits:

* ``test``: each of the 15 templates in 7 scenes (105 tasks), the original's size;
* ``demo``: 74 demonstrations (objects, instruction, code): the 8 seen templates in 7 scenes each,
  and 18 of three demonstration-only kinds (moving by an offset, placing between two objects,
  counting aloud). The 7 unseen templates have none, as in the original;
* ``train``: unlimited, any of the 15 templates in any scene.

Scenes are laid out by a seeded generator (:mod:`toolgym.families.tabletop.world.layouts`); a draw
that makes an unclear task (a block level with the bowl it is compared with, a place off the
table, a gold that fails its check) is drawn again. Every gold runs in the sandbox on its scene
when the tasks are built. :func:`load_tests` reads the original's test file format.
"""

from toolgym.lazy import lazy_package

# The suite and its helpers load on first use: the family's declaration imports this package's
# light modules (its metrics) without them.
__getattr__, __dir__ = lazy_package(__name__, "suite")
