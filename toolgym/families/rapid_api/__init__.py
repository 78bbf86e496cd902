"""The RapidAPI family: its world, tools, tasks and declaration (see :mod:`toolgym.families`).

* :mod:`.world`: ToolBench's and StableToolBench's files (tools, queries, response caches) read
  into the shared tool-library model (:mod:`toolgym.simulators.tool_library`);
* :mod:`.toolkit`, :mod:`.backend`, :mod:`.functions`, :mod:`.actions`, :mod:`.language`,
  :mod:`.retriever` and :mod:`.status`: the function schemas the agent sees, its actions and
  the backend that runs them, with ToolBench's status codes;
* :mod:`.tasks`: the G1, G2 and G3 generators and the suite; :mod:`.checker` and
  :mod:`.metrics`: the scoring; :mod:`.answers`: ToolBench's answer files;
* :mod:`.bench`: the family's own performance measures; :mod:`.spec`: the declaration.
"""
