"""Grammar-constrained decoding for local models: an action grammar as a per-token mask.

:class:`GrammarEngine` compiles an :class:`~toolgym.tools.grammar.ActionGrammar` once per
grammar (the GBNF through ``llguidance``, which reads GBNF and compiles a grammar of a few
hundred rules in milliseconds) and gives each generation a :class:`Constraint`: the tokens the
grammar allows next, narrowed by the grammar's once-per-line prefixes, and the choice of the best
allowed token. ``llguidance`` is optional (``pip install "toolgym[constrained]"``); without it a
backend asked to constrain raises :class:`~toolgym.errors.DependencyNotInstalled`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from toolgym.agents.backends.token_bytes import engine_json, token_bytes
from toolgym.errors import DependencyNotInstalled, ToolgymError
from toolgym.tools.grammar import ActionGrammar

END = -1
"""What :meth:`Constraint.choose` returns when the grammar allows nothing more."""
MAX_REJECTIONS = 32
"""How many of the best allowed tokens a step tries against the once-per-line prefixes."""


def _require_llguidance() -> Any:
    try:
        import llguidance
    except ImportError as e:
        raise DependencyNotInstalled(
            'constrained decoding needs llguidance: pip install "toolgym[constrained]"'
        ) from e
    return llguidance


class GrammarError(ToolgymError):
    """An action grammar the engine cannot compile (a bug in the language's grammar)."""


class GrammarEngine:
    """Compiles action grammars for one tokenizer and hands out constraints.

    Args:
        tokenizer: a Hugging Face tokenizer.
        vocab_size: the model's logits width (may exceed the tokenizer's size).
        cache_size: compiled grammars kept (least recently used first out).
    """

    def __init__(self, tokenizer: Any, vocab_size: int, cache_size: int = 64) -> None:
        llguidance = _require_llguidance()
        self._ll = llguidance
        self.tokenizer = tokenizer
        self.vocab_size = vocab_size
        self.eos = tokenizer.eos_token_id
        self.lltok = llguidance.LLTokenizer(
            engine_json(tokenizer), n_vocab=vocab_size, eos_token=self.eos
        )
        self.token_bytes = token_bytes(tokenizer)[:vocab_size]
        """The bytes each token writes (the tokenizer's own, which the engine is checked to share)."""
        self._check_vocabulary()
        self._compiled: OrderedDict[str, Any] = OrderedDict()
        self.cache_size = cache_size

    def _check_vocabulary(self) -> None:
        """Refuse a tokenizer whose tokens the engine reads as other bytes than it writes.

        Such an engine refuses tokens the grammar allows (and allows others), so every
        constrained action would be cut or bent; see :mod:`~toolgym.agents.backends.token_bytes`.
        """
        expected = self.token_bytes
        # llguidance marks special tokens with the byte 0xFF, which UTF-8 text never holds, so a
        # token of that byte is one no grammar can write anyway
        wrong = [
            i
            for i, b in enumerate(expected)
            if not b.startswith(b"\xff") and self.lltok.decode_bytes([i]) != b
        ]
        if wrong:
            shown = ", ".join(
                f"{i}: {expected[i]!r} read as {self.lltok.decode_bytes([i])!r}" for i in wrong[:3]
            )
            raise GrammarError(
                f"the grammar engine reads {len(wrong)} of {len(expected)} tokens as other bytes "
                f"than the tokenizer writes ({shown}); constrained decoding would cut actions"
            )

    def bytes_of(self, token: int) -> bytes:
        """The bytes ``token`` writes (nothing for an id past the vocabulary)."""
        return self.token_bytes[token] if 0 <= token < len(self.token_bytes) else b""

    def _matcher(self, grammar: ActionGrammar) -> Any:
        prototype = self._compiled.get(grammar.key)
        if prototype is None:
            try:
                lark = self._ll.grammar_from("gbnf", grammar.gbnf)
            except ValueError as e:
                raise GrammarError(f"cannot compile the action grammar: {e}") from e
            prototype = self._ll.LLMatcher(self.lltok, lark, log_level=0)
            if prototype.is_error():
                raise GrammarError(f"cannot compile the action grammar: {prototype.get_error()}")
            self._compiled[grammar.key] = prototype
            while len(self._compiled) > self.cache_size:
                self._compiled.popitem(last=False)
        else:
            self._compiled.move_to_end(grammar.key)
        return prototype.deep_copy()

    def constraint(self, grammar: ActionGrammar, budget: int | None = None) -> Constraint:
        """A fresh constraint for one generation of at most ``budget`` tokens under ``grammar``."""
        return Constraint(self, grammar, self._matcher(grammar), budget)


class Constraint:
    """One generation's state under a grammar: what it allows next, and its choice.

    With a grammar whose last line is fixed (``API.search()``), that line is written where the
    model, left free, would have ended the action (at the start of a line, its best token is the
    end of the sequence, a blank line or the start of a stop sequence, which the grammar does not
    allow before the last line), and where the token budget left would not hold another line and
    the last one, so that the action ends complete instead of being cut.
    """

    def __init__(
        self, engine: GrammarEngine, grammar: ActionGrammar, matcher: Any, budget: int | None
    ) -> None:
        self.engine = engine
        self.grammar = grammar
        self.matcher = matcher
        self.budget = budget
        self.tokens: list[int] = []
        self.accepted_at: int | None = None
        """How many of :attr:`tokens` made the last whole action (where the grammar could end)."""
        self._forced: list[int] = []
        self._line_start = 0
        self._longest_line = 12
        self._final = (
            engine.tokenizer.encode(grammar.final, add_special_tokens=False)
            if grammar.final and budget
            else []
        )
        self._bits = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
        self._allowed: np.ndarray | None = None
        self.scores: Any = None
        """The masked logits the last token was chosen from (``-inf`` where not allowed)."""

    @property
    def finished(self) -> bool:
        """Whether the grammar allows nothing more (the action is complete)."""
        return bool(self.matcher.is_stopped())

    def allowed(self) -> np.ndarray:
        """A boolean mask of the tokens the grammar allows next (computed once per token)."""
        if self._allowed is None:
            self.matcher.unsafe_compute_mask_ptr(self._bits.ctypes.data, self._bits.nbytes)
            unpacked = np.unpackbits(self._bits.view(np.uint8), bitorder="little")
            self._allowed = unpacked[: self.engine.vocab_size].astype(bool)
        return self._allowed

    def choose(
        self,
        logits: Any,
        pick: Callable[[Any], Any] | None = None,
        proposal: tuple[int, int, bool] | None = None,
    ) -> int:
        """The best token the grammar and the once-per-line prefixes allow; it is consumed.

        Args:
            logits: the row's next-token logits (a 1-D torch tensor).
            pick: chooses a token from the masked logits (``-inf`` where not allowed, some
                finite); default: the largest (greedy). A sampler draws one instead. A token
                the once-per-line prefixes refuse is masked too, and ``pick`` chooses again.
                :attr:`scores` keeps the logits the token was chosen from.
            proposal: greedy only: ``(best token, best allowed token, whether any is allowed)``
                already computed from ``logits`` and :meth:`allowed` (a batch's rows are masked
                together on the device). When the proposal stands, :attr:`scores` is ``None``.

        Returns:
            The token (the end-of-sequence token when the grammar chose to end), or :data:`END`
            when no token is allowed.
        """
        import torch

        allowed = self.allowed()
        raw = proposal[0] if proposal is not None else int(logits.argmax())
        if self._final and self._at_line_start() and self._means_end(raw, allowed):
            self._forced, self._final = list(self._final), []
        if proposal is not None and pick is None:
            self.scores = None
            forced = self._force()
            if forced is not None:
                return forced
            _, best, any_allowed = proposal
            if not any_allowed:
                return END
            if best == self.engine.eos:
                return best
            if self._keeps_once(best):
                self._consume(best)
                return best
        mask = torch.from_numpy(allowed).to(logits.device)
        scores = logits.float().masked_fill(~mask, float("-inf"))
        self.scores = scores
        forced = self._force()
        if forced is not None:
            return forced
        for _ in range(MAX_REJECTIONS):
            if not torch.isfinite(scores.max()):
                break
            best = int(scores.argmax() if pick is None else pick(scores))
            if not torch.isfinite(scores[best]):
                break
            if best == self.engine.eos:
                return best
            if self._keeps_once(best):
                self._consume(best)
                return best
            scores[best] = float("-inf")
        return END

    def _consume(self, token: int) -> None:
        self._allowed = None
        self.matcher.consume_token(token)
        self.tokens.append(token)
        if self.matcher.is_accepting():
            self.accepted_at = len(self.tokens)
        if b"\n" in self.engine.bytes_of(token):
            self._longest_line = max(self._longest_line, len(self.tokens) - self._line_start)
            self._line_start = len(self.tokens)

    def _at_line_start(self) -> bool:
        return bool(self.tokens) and self._line_start == len(self.tokens)

    def _means_end(self, token: int, mask: Any) -> bool:
        """Whether the model, free, would end the action here (a stop or a blank line)."""
        if bool(mask[token]) and token != self.engine.eos:
            return False
        if token == self.engine.eos:
            return True
        text = self.engine.bytes_of(token)
        return text.startswith((b"\n", b"-", b"Task")) or text.strip() == b""

    def _force(self) -> int | None:
        """The next token of the last line, when the budget left calls for it."""
        if not self._forced and self._final and self.budget and self.tokens:
            left = self.budget - len(self.tokens)
            at_line_start = self._line_start == len(self.tokens)
            if at_line_start and left <= len(self._final) + self._longest_line:
                self._forced = list(self._final)
                self._final = []
        if not self._forced:
            return None
        token = self._forced.pop(0)
        if not self.matcher.validate_tokens([token]):
            self._forced = []  # the grammar does not take it here: choose freely
            return None
        self._consume(token)
        return token

    def _keeps_once(self, token: int) -> bool:
        if not (self.grammar.once or self.grammar.once_key):
            return True
        text = self.engine.tokenizer.decode(
            [*self.tokens, token], skip_special_tokens=True, clean_up_tokenization_spaces=False
        )
        return self.grammar.allows(text)
