"""The LLM agent: the paper's prompt (system prompt, retrieved docs and demos), any backend.

The agent is split in two halves so that a runner can batch many episodes into one generation:
:meth:`LLMAgent.prompt` builds the prompt for an observation and :meth:`LLMAgent.parse` turns the
generation into an action. :meth:`LLMAgent.act_with_info` does both with one backend call.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    generate_checked,
    grammar_options,
    merge_stops,
)
from toolgym.agents.base import Agent
from toolgym.agents.extraction import extract_action, extract_react
from toolgym.agents.prompting import (
    REACT_STOPS,
    SYSTEM_PROMPT,
    call_signature,
    paper_prompt,
    react_prompt,
    render_demo,
)
from toolgym.agents.retrieval import Retriever, make_retriever
from toolgym.benchmarks.tasks import Task
from toolgym.envs import family as family_spec
from toolgym.envs.protocol import task_env
from toolgym.envs.spec import PromptDefaults
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import AgentHints, language_class

STRATEGIES = ("single", "react", "dfsdt")
"""``single``: one generation per task (program mode); ``react``/``dfsdt``: one call per turn."""


class LLMAgent(Agent):
    """An agent that prompts an LLM the way the ToolBench paper does.

    Args:
        backend: the model (``HFBackend``, ``OpenAIBackend``, ``LlamaCppBackend``, ...).
        demos: the demonstration pool (the env's ``demo`` split).
        shots: how many demos to retrieve per task (0 = zero-shot), or ``"oracle"`` for the one
            demo whose calls best match the task's gold (privileged: needs ``gold``).
        retriever: ``"bm25"`` (the original) or ``"embedding"``.
        top_k_api: how many API docs to retrieve (default: the original's setting for the family).
        doc_order: ``"source"``: the retrieved docs in the order the env lists them, so that
            prompts of tasks that retrieve the same docs share their first tokens (a backend
            with a prefix cache reads them once); ``"retrieval"``: best first (the original
            template's order).
        max_new_tokens: generation budget per turn (default: the family's).
        system_prompt: the system prompt; ``None`` or ``""`` to leave it out.
        strategy: ``"single"``, ``"react"`` or ``"dfsdt"`` (the runner drives DFSDT's search).
        extraction: ``"strict"`` (the original) or ``"lenient"`` for API programs.
        family: the tool family name, for its prompting defaults (``toolgym.envs.family``).
        gold: a function returning the current task (for ``shots="oracle"``).
        stop: extra stop sequences.
        hints: how to act in the env (its ``hints``); by default, what the action language of
            each episode's ``info`` implies.
        constrained: decode under the action language's grammar (``single`` strategy: the
            whole action or one page's step), so the model writes only actions the language
            can run; needs ``grammar``.
        grammar: a function returning the grammar of the env's next action
            (:meth:`~toolgym.envs.tool_env.ToolEnv.action_grammar`; ``LLMAgent.for_env`` binds it).
    """

    def __init__(
        self,
        backend: LLMBackend,
        *,
        demos: Sequence[Task] = (),
        shots: int | str = 3,
        retriever: str = "bm25",
        top_k_api: int | None = None,
        doc_order: str = "source",
        max_new_tokens: int | None = None,
        system_prompt: str | None = SYSTEM_PROMPT,
        strategy: str = "single",
        extraction: str = "strict",
        family: str | None = None,
        gold: Callable[[], Task | None] | None = None,
        stop: Sequence[str] = (),
        hints: AgentHints | None = None,
        constrained: bool = False,
        grammar: Callable[[], ActionGrammar | None] | None = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {STRATEGIES}; got {strategy!r}")
        if doc_order not in ("source", "retrieval"):
            raise ValueError(f"doc_order must be 'source' or 'retrieval'; got {doc_order!r}")
        if shots != "oracle" and (not isinstance(shots, int) or shots < 0):
            raise ValueError(f"shots must be a non-negative int or 'oracle'; got {shots!r}")
        if shots == "oracle" and gold is None:
            raise ValueError("shots='oracle' needs gold=<function returning the current task>")
        defaults = family_spec(family).prompting if family else PromptDefaults()
        self.backend = backend
        self.demos = list(demos)
        self.shots = shots
        self.retriever_kind = retriever
        self.top_k_api = defaults.top_k_api if top_k_api is None else top_k_api
        self.doc_order = doc_order
        self.max_new_tokens = defaults.max_new_tokens if max_new_tokens is None else max_new_tokens
        self.system_prompt = system_prompt or None
        self.strategy = strategy
        self.extraction = extraction
        self.family = family
        self.gold = gold
        self.hints = hints
        if constrained and grammar is None:
            raise ValueError(
                "constrained=True needs grammar=<function returning the env's action grammar> "
                "(LLMAgent.for_env binds it)"
            )
        self.constrained = constrained
        self.grammar_of = grammar
        self.stop = merge_stops(DEFAULT_STOPS, REACT_STOPS if strategy != "single" else (), stop)
        self.name = f"llm:{backend.name}"
        self._demo_retriever: Retriever | None = None
        self._doc_retrievers: dict[tuple[str, ...], Retriever] = {}
        self.avoid: list[str] = []  # actions DFSDT already tried at this node
        self._reset_episode("")

    @classmethod
    def for_env(cls, env: Any, backend: LLMBackend, **kwargs: Any) -> LLMAgent:
        """An agent for a toolgym env: its demo split, prompting defaults, hints and gold (oracle)."""
        base = task_env(env)
        suite = base.suite
        demos = suite.demo_pairs()
        kwargs.setdefault("family", base.family.name)
        kwargs.setdefault("hints", base.hints)
        if kwargs.get("shots") == "oracle":
            kwargs.setdefault("gold", lambda: base.task)
        kwargs.setdefault("grammar", base.action_grammar)
        return cls(backend, demos=demos, **kwargs)

    def _hints(self, info: dict[str, Any]) -> AgentHints:
        language = info.get("action_language")
        if self.hints is not None and language in (None, self.hints.action_language):
            return self.hints
        if language is None:
            raise ValueError(
                "the agent needs to know the action language: pass hints=env hints "
                "(LLMAgent.for_env does) or an info with 'action_language'"
            )
        return language_class(language).default_hints()

    # -- episode state ---------------------------------------------------------------------------
    def _reset_episode(self, query: str) -> None:
        self.query = query
        self.history: list[tuple[str, str, str | None]] = []
        self._docs: list[str] = []
        self._demo_texts: list[str] = []

    def reset(self, observation: str, info: dict[str, Any]) -> None:
        """Retrieve the docs and demos for the new task."""
        self._reset_episode(info.get("instruction", observation))
        hints = self._hints(info)
        docs = list(
            info.get("api_doc_list") or ([info["api_docs"]] if info.get("api_docs") else [])
        )
        if docs and self.top_k_api > 0:
            key = tuple(docs)
            retriever = self._doc_retrievers.get(key)
            if retriever is None:
                retriever = make_retriever(self.retriever_kind, docs)
                self._doc_retrievers[key] = retriever
            chosen = retriever.retrieve(self.query, self.top_k_api)
            if self.doc_order == "source":
                chosen = sorted(chosen)
            self._docs = [retriever.documents[i] for i in chosen]
        self._demo_texts = [
            render_demo(t, hints.demo_label) for t in self._pick_demos(hints.action_language)
        ]

    def _pick_demos(self, language: str) -> list[Task]:
        if not self.demos or self.shots == 0:
            return []
        if self.shots == "oracle":
            assert self.gold is not None
            task = self.gold()
            if task is None:
                return []
            target = call_signature(task.gold[0], language)

            def overlap(demo: Task) -> float:
                other = call_signature(demo.gold[0], language)
                union = target | other
                return len(target & other) / len(union) if union else 0.0

            return [max(self.demos, key=overlap)]  # max keeps the first of equals
        if self._demo_retriever is None:
            self._demo_retriever = make_retriever(
                self.retriever_kind, [d.instruction for d in self.demos]
            )
        assert isinstance(self.shots, int)
        indices = self._demo_retriever.retrieve(self.query, self.shots)
        return [self.demos[i] for i in indices]

    def get_state(self) -> dict[str, Any]:
        """The episode state (for DFSDT backtracking)."""
        return {"history": copy.deepcopy(self.history), "avoid": list(self.avoid)}

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore :meth:`get_state`'s result."""
        self.history = copy.deepcopy(state["history"])
        self.avoid = list(state["avoid"])

    # -- the two halves of a turn ------------------------------------------------------------------
    def prompt(self, observation: str, info: dict[str, Any]) -> Prompt:
        """The prompt for this turn (chat messages when there is a system prompt)."""
        if self.strategy == "single":
            if self._hints(info).page_prompts:  # a fresh prompt on each page, no history
                self.query = observation
                hints = self._hints(info)
                self._demo_texts = [
                    render_demo(t, hints.demo_label)
                    for t in self._pick_demos(hints.action_language)
                ]
            text = paper_prompt(self.query, self._docs, self._demo_texts)
        else:
            if self.history and self.history[-1][2] is None:
                thought, action, _ = self.history[-1]
                self.history[-1] = (thought, action, observation)
            text = react_prompt(
                self.query, self._docs, self._demo_texts, self.history, self._hints(info)
            )
            if self.avoid:
                tried = "; ".join(self.avoid)
                head, sep, tail = text.rpartition("\nThought:")  # only before the new turn
                note = f"\n(Actions already tried at this point, which failed: {tried}. "
                text = f"{head}{note}Try something different.){sep}{tail}" if sep else text
        if self.system_prompt:
            return [
                {"role": "system", "content": self.system_prompt},
                {"role": "user", "content": text},
            ]
        return text

    def grammar(self, info: dict[str, Any]) -> ActionGrammar | None:
        """The grammar this turn's generation follows (``None``: unconstrained).

        Only single-generation turns are constrained: a ReAct turn's thought is free text.
        """
        if not self.constrained or self.strategy != "single" or self.grammar_of is None:
            return None
        return self.grammar_of()

    def parse(self, generation: Generation, info: dict[str, Any]) -> str:
        """The action in a generation (and, for ReAct, the turn is added to the history)."""
        hints = self._hints(info)
        if self.strategy == "single":
            return extract_action(generation.text, hints.action_language, self.extraction, hints)
        thought, action = extract_react(generation.text)
        self.history.append((thought, action, None))
        return action

    def act_with_info(self, observation: str, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """One generation, its action, and what to record (prompt, raw generation, action)."""
        prompt = self.prompt(observation, info)
        generation = generate_checked(
            self.backend,
            [prompt],
            max_new_tokens=self.max_new_tokens,
            stop=self.stop,
            **grammar_options([self.grammar(info)]),
        )[0]
        action = self.parse(generation, info)
        return action, self.record(prompt, generation, action)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The next action."""
        return self.act_with_info(observation, info)[0]

    @staticmethod
    def record(prompt: Prompt, generation: Generation, action: str) -> dict[str, Any]:
        """What the runner logs for one turn."""
        return {
            "prompt": prompt,
            "generation": generation.text,
            "finish_reason": generation.finish_reason,
            "completion_tokens": generation.completion_tokens,
            "action": action,
        }
