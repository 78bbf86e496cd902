"""The tabletop family's agent-facing parts.

The primitives (``primitives``), the rule-based parsers (``parsing``, the public readers, built on
the words of ``vocabulary``, the scene and places of ``referents``, the noun phrases of ``phrases``,
the positions and questions of ``positions`` and the shape changes of ``shapes``), the fixed
helpers (``helpers``), their docs (``functions``), the sandbox adapter (``adapter``) and the
toolkit and its backend (``toolkit``).
"""
