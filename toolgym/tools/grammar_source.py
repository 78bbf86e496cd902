"""The grammar side of an action language: what a model may write, for constrained decoding."""

from __future__ import annotations

from toolgym.tools.backend import Backend
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.tool import ToolSet


class GrammarSource:
    """Derives the grammar of one action from the task's tools and the episode's state."""

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """What a model may write as one action here, for constrained decoding.

        Args:
            tools: the task's tools.
            mode: ``"program"`` (the whole action) or ``"call"`` (one step).
            backend: the episode's backend, for languages whose actions depend on its state (the
                links of the current page).

        Returns:
            The grammar, or ``None`` when the language has none (general Python): the model is
            then left unconstrained.
        """
        return None

    @classmethod
    def has_grammar(cls) -> bool:
        """Whether the language derives grammars (it overrides :meth:`grammar`)."""
        return cls.grammar is not GrammarSource.grammar
