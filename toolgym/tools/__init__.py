"""The agent-facing surface of each simulator: function schemas, API objects, action languages."""

from toolgym.tools.api import CallRecord, Constructor, ToolApi, ToolSession
from toolgym.tools.errors import CATEGORIES, ToolCallError
from toolgym.tools.program import extract_program, parse_program, run_program
from toolgym.tools.schema import Param, ToolFunction

__all__ = [
    "CATEGORIES",
    "CallRecord",
    "Constructor",
    "Param",
    "ToolApi",
    "ToolCallError",
    "ToolFunction",
    "ToolSession",
    "extract_program",
    "parse_program",
    "run_program",
]
