"""The household family's agent-facing parts.

Allowed objects (``objects``), the ``Agent`` line language (``language``), the toolkit and its
backend (``toolkit``).
"""
