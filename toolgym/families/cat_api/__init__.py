"""The Cat API family: a simulated TheCatAPI (images, breeds, favourites, votes) driven by curl.

* :mod:`.world`: the service (:class:`~toolgym.families.cat_api.world.CatApiApp`) and its
  catalog;
* :mod:`.toolkit`: the documented endpoints, as tools, and their curl backend;
* :mod:`.tasks`: the generators, their phrasing, the checker and the suites (v0 and v1);
* :mod:`.spec`: the declaration (env ids ``toolbench/CatAPI-v0`` and ``-v1``).
"""
