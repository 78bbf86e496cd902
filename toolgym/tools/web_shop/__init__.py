"""The web shop family's agent-facing parts.

The ``web_actions`` language (``language``), the shop's backend and toolkit (``toolkit``) and its
performance measures (``bench``).
"""
