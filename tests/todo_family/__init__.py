"""A tiny tool family kept in the tests: a to-do list, graded on its final state.

It is the worked example of ``docs/adding-a-family.md`` and runs the same family contract suite
as every built-in family. Its modules follow the layers of the package, one name per family:

* :mod:`todo_family.simulator`: the world (a to-do list), seeded, with snapshot and restore;
* :mod:`todo_family.tools`: three tools, the backend that runs JSON calls on the list, the toolkit;
* :mod:`todo_family.tasks`: the task generator, the final-state checker and the task suite;
* :mod:`todo_family.spec`: the family's declaration.

``register_family(SPEC)`` (done by the tests' ``conftest.py``) is the one entry it needs.
"""
