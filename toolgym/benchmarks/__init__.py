"""Tasks, splits, generators, checkers and metrics: everything below the environments.

One package per family not yet in :mod:`toolgym.families` (``rapid_api``, ``seal_tools``)
holds its task generator and its ``SUITE``; the shared pieces are ``tasks`` (tasks, task sets,
loaders), ``suite`` (splits and the ``train`` stream), ``score`` (scores and the checker
interface), ``checkers`` and ``metrics``. The evaluation loop and reports live in
:mod:`toolgym.evaluation`, above the agents.
"""
