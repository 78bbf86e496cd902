"""The RapidAPI world's files: ToolBench's ``tools/`` folders and query files, StableToolBench's caches.

The library itself (data model, generator, value synthesis and the service that answers calls)
is shared machinery in :mod:`toolgym.simulators.tool_library`; this package reads the originals'
files into it (:mod:`.loaders`).
"""
