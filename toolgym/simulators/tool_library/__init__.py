"""The tool library: RapidAPI-style tools in ToolBench's formats, and a service that answers them.

No tool, prompt or task knows about this package's internals: it is the world the library families
act in. :mod:`.model` holds the data model, :mod:`.naming` ToolBench's name rules.
"""
