"""The Seal-Tools tasks: queries and their gold calling lists, and the loader of the originals.

A task record is ``{"id", "prompt": query, "completion": [calling list as JSON], "kind",
"tools": [offered api names]}``; its setup, the tools the prompt offers in that order, is
derived from ``tools`` (or, for a task without them, from the APIs its gold calls).

Splits (generated over the tools of world 0, :mod:`.generation`):

* ``test``: 600 tasks, 200 of each kind (``single``, ``multiple``, ``nested``), interleaved;
* ``demo``: 60 tasks, 20 of each kind;
* ``train``: unlimited; task ``train-<k>`` is of kind ``k % 3`` in any world, never with a test
  or demo query.

:func:`load_instance_tasks` reads Seal-Tools' own files (``tool.jsonl`` and an instance file
such as ``dev.jsonl``) as tasks that offer five retrieved tools, as Seal-Tools' prompts do (or
only their gold tools, ``offer="gold"``); play them in an env made with the same ``tool_file``.
"""

from toolgym.lazy import lazy_package

# The suite and its helpers load on first use: the family's declaration imports this package's
# light modules (its metrics) without them.
__getattr__, __dir__ = lazy_package(__name__, "suite")
