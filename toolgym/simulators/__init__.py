"""World state and rules of each tool family: pure Python, seeded, no Gymnasium and no prompts.

The worlds of the families not yet in :mod:`toolgym.families` (``tool_library``, RapidAPI's and
Seal-Tools' library, and ``seal_tools``) plus what the families share: ``http`` (the interface of every simulated REST service), ``places`` and ``gazetteer``
(real places), ``seeding`` (stable seeds).
"""
