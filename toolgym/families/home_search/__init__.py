"""The Home Search family: its world, tools, tasks and declaration (see :mod:`toolgym.families`).

* :mod:`.world`: the simulator;
* :mod:`.toolkit`: the tools the agent sees and the backend that runs them;
* :mod:`.tasks`: the generators, their phrasing, the checker and the suites;
* :mod:`.spec`: the declaration.
"""
