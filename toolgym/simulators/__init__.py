"""World state and rules of each tool family: pure Python, seeded, no Gymnasium and no prompts.

One module per family (``home_search``, ``trip_booking``, ``openweather``, ``cat_api``) plus what
they share: ``http`` (the interface of every simulated REST service), ``places`` and ``gazetteer``
(real places), ``seeding`` (stable seeds).
"""
