"""The agent-facing surface: the tool model, action languages, backends and transports.

* ``tool``: :class:`~toolgym.tools.tool.Tool`, the one tool model, and tool sets;
* ``language``, ``api_program``, ``curl_language``, ``json_language``: action languages;
* ``backend``, ``program_backend``, ``rest_backend``, ``toolkit``: where calls run;
* ``program`` (the safe interpreter), ``curl`` (the curl parser), ``json_calls``, ``rest``;
* ``requests_transport``, ``http_server``: the simulated services over real HTTP clients;
* the tools of the families not yet in :mod:`toolgym.families` (``rapid_api``, ``seal_tools``).
"""
