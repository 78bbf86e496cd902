"""Simulator machinery the families share: pure Python, seeded, no Gymnasium and no prompts.

``http`` (the interface of every simulated REST service), ``places`` and ``gazetteer`` (real
places), ``seeding`` (stable seeds), ``cache``, ``stop_words`` and ``tool_library`` (a library of
RapidAPI-style tools and the service that answers them, which the library families build on).
Each family's own world is in its package, ``toolgym/families/<name>/world/``.
"""
