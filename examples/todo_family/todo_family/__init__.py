"""A tiny tool family shipped as a package of its own: a to-do list, graded on its final state.

It is the worked example of ``docs/adding-a-family.md``: installed, it adds
``toolbench/TodoList-v0`` through the ``toolgym.families`` entry point, with no edit to toolgym,
and toolgym's tests run the same family contract suite over it as over every built-in family. Its modules follow the layers of the package, one name per family:

* :mod:`todo_family.simulator`: the world (a to-do list), seeded, with snapshot and restore;
* :mod:`todo_family.tools`: three tools, the backend that runs JSON calls on the list, the toolkit;
* :mod:`todo_family.tasks`: the task generator, the final-state checker and the task suite;
* :mod:`todo_family.spec`: the family's declaration.

Its ``pyproject.toml`` declares ``[project.entry-points."toolgym.families"] todo_list =
"todo_family.spec:SPEC"``: the one line that adds a family. Without installing it,
``toolgym.envs.register_family(SPEC)`` adds it to the running process.
"""
