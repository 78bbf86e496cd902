"""The tabletop family's agent-facing parts.

The primitives (``primitives``), the rule-based parsers (``parsing``), the fixed helpers
(``helpers``), their docs (``functions``), the sandbox adapter (``adapter``) and the toolkit and
its backend (``toolkit``).
"""
