"""Tool families, one package each: a family's world, tools, tasks and declaration live together.

Each family package has the same inner layout:

* ``world/``: the simulator (seeded, no Gymnasium, no prompts);
* ``toolkit.py``: the tools the agent sees and the backends that run them;
* ``tasks/``: the task generators (phrasing in ``phrasing.py``), the checker and the suite;
* ``spec.py``: the family's declaration (:class:`toolgym.envs.spec.FamilySpec`), its one entry in
  :data:`toolgym.envs.FAMILY_SPECS`.

The core (``simulators``, ``tools``, ``benchmarks``, ``envs`` and what sits on them) never imports
a family: it reaches one only through the strings of its declaration. Families move here one at a
time; those not yet moved keep a module per layer (``simulators/<name>``, ``tools/<name>``,
``benchmarks/<name>``, ``envs/<name>.py``).
"""
