"""The Tabletop family: its world, tools, tasks and declaration (see :mod:`toolgym.families`).

* :mod:`.world`: the simulator;
* :mod:`.toolkit`: the tools the agent sees and the backend that runs them (with the sandbox's
  :mod:`.adapter` and the documented :mod:`.functions`);
* :mod:`.tasks`: the generators and the suites; :mod:`.checker` and :mod:`.metrics`: the scoring;
* :mod:`.spec`: the declaration.
"""
