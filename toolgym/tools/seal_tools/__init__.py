"""The Seal-Tools family's agent-facing parts.

The world's tools in Seal-Tools' format, converted from the generated tool library or read from
a ``tool.jsonl`` (:mod:`.convert`); calling lists, their placeholders and their checks
(:mod:`.calls`); the benchmark's prompt (:mod:`.prompt`); the calling-list language
(:mod:`.language`); the toolkit and its backend (:mod:`.toolkit`).
"""
