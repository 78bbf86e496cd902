"""The Google Sheets family: its world, tools, tasks and declaration (see :mod:`toolgym.families`).

* :mod:`.world`: the simulator;
* :mod:`.toolkit` and :mod:`.language`: the tools the agent sees, their action language and the
  backend that runs them;
* :mod:`.tasks`: the generators and the suites; :mod:`.checker` and :mod:`.metrics`: the scoring;
* :mod:`.spec`: the declaration.
"""
