"""The tool library: RapidAPI-style tools, generated or read, and a service that answers them.

Shared machinery of the library families (RapidAPI's world reads ToolBench's files into it,
Seal-Tools converts its tools from it); it names no family. :mod:`.model` holds the data model,
:mod:`.naming` the name rules of ToolBench's format, :mod:`.generator` the seeded library,
:mod:`.synthesis` and the value modules the responses, :mod:`.service` the service.
"""
