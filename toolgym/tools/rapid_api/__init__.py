"""The RapidAPI family's agent-facing parts: function schemas, actions, backend and toolkit."""
