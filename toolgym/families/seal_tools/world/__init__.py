"""Seal-Tools: its tool list and instances (nested calls through response placeholders).

:mod:`.formats` reads and writes the released files (``tool.jsonl``, ``dev.jsonl``, ...).
"""

from toolgym.families.seal_tools.world.formats import (
    REFERENCE,
    REPAIR_KINDS,
    SealCall,
    SealInstance,
    SealTool,
    is_irregular_reference,
    is_reference,
    load_seal_instances,
    load_seal_tools,
    seal_tool_to_json,
    write_seal_instances,
    write_seal_tools,
)

__all__ = [
    "REFERENCE",
    "REPAIR_KINDS",
    "SealCall",
    "SealInstance",
    "SealTool",
    "is_irregular_reference",
    "is_reference",
    "load_seal_instances",
    "load_seal_tools",
    "seal_tool_to_json",
    "write_seal_instances",
    "write_seal_tools",
]
