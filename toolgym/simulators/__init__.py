"""World state and rules of each tool family: pure Python, seeded, no Gymnasium and no prompts.

One module per family not yet in :mod:`toolgym.families` (``home_search``, ``trip_booking``,
``openweather``, ...) plus what they share: ``http`` (the interface of every simulated REST service), ``places`` and ``gazetteer``
(real places), ``seeding`` (stable seeds).
"""
