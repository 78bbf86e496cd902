"""The Seal-Tools family: its world, tools, tasks and declaration (see :mod:`toolgym.families`).

* :mod:`.world`: Seal-Tools' released files (``tool.jsonl``, instances with nested calls);
* :mod:`.convert`: the world's tools in Seal-Tools' format, converted from the generated tool
  library or read from a ``tool.jsonl``; :mod:`.calls`: calling lists, their placeholders and
  their checks; :mod:`.prompt`: the benchmark's prompt;
* :mod:`.toolkit` and :mod:`.language`: the toolkit, its backend and the calling-list language;
* :mod:`.tasks`: the generators and the suite; :mod:`.checker` and :mod:`.metrics`: the
  scoring (Seal-Tools' call metrics, shared in :mod:`toolgym.benchmarks.call_metrics`);
* :mod:`.spec`: the declaration.
"""
