"""The LLM agent: the paper's prompt (system prompt, retrieved docs and demos), any backend.

The agent is split in two halves so that a runner can batch many episodes into one generation:
:meth:`LLMAgent.prompt` builds the prompt for an observation and :meth:`LLMAgent.parse` turns the
generation into an action. :meth:`LLMAgent.act_with_info` does both with one backend call.

The model acts in one of two ways (``tool_calling``): by writing the env's actions as text (the
paper's protocol), or by calling the task's tools in its own function-calling format, which the
env turns into its action (:meth:`~toolgym.envs.tool_env.ToolEnv.native_action`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    TRACE_KEYS,
    Generation,
    LLMBackend,
    Prompt,
    generate_checked,
    grammar_options,
    merge_stops,
)
from toolgym.agents.base import Agent
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.extraction import extract_action, extract_react
from toolgym.agents.native_prompting import (
    NATIVE_SYSTEM_PROMPT,
    NativeTurn,
    history_calls,
    native_messages,
)
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
from toolgym.envs.protocol import task_env
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import AgentHints, language_class

STRATEGIES = ("single", "react", "dfsdt")
"""``single``: one generation per task (program mode); ``react``/``dfsdt``: one call per turn."""
TOOL_CALLING = ("text", "native")
"""``text``: the model writes actions (the paper's protocol); ``native``: it calls the tools."""


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
        family: the tool family name, for its prompting defaults (``prompt_defaults``).
        gold: a function returning the current task (for ``shots="oracle"``).
        stop: extra stop sequences.
        hints: how to act in the env (its ``hints``); by default, what the action language of
            each episode's ``info`` implies.
        constrained: decode under the action language's grammar (``single`` strategy: the
            whole action or one page's step), so the model writes only actions the language
            can run; needs ``grammar``.
        grammar: a function returning the grammar of the env's next action
            (:meth:`~toolgym.envs.tool_env.ToolEnv.action_grammar`; ``LLMAgent.for_env`` binds it).
        tool_calling: ``"text"`` (the paper's protocol: the model writes the action) or
            ``"native"``: the model gets the task's tools (``info["tools"]``) and calls them in its
            own format; the prompt is then chat messages with the task and the demonstrations
            but no docs (the tools carry them), and the default system prompt is
            :data:`~toolgym.agents.native_prompting.NATIVE_SYSTEM_PROMPT`. A reply without tool
            calls is read as a written action. Needs a backend with native tool calling and
            ``native_action``.
        native_action: a function turning the model's tool calls into the env's action
            (:meth:`~toolgym.envs.tool_env.ToolEnv.native_action`; ``LLMAgent.for_env`` binds it).

    Raises:
        ValueError: an unknown strategy, document order, shot count, or tool-calling mode;
            ``shots="oracle"`` without ``gold``; ``constrained`` without ``grammar`` or with
            native tool calling; native tool calling on a backend without it, or without
            ``native_action``.
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
        tool_calling: str = "text",
        native_action: Callable[[list[dict[str, Any]]], str] | None = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {STRATEGIES}; got {strategy!r}")
        _check_tool_calling(tool_calling, backend, native_action, constrained)
        if doc_order not in ("source", "retrieval"):
            raise ValueError(f"doc_order must be 'source' or 'retrieval'; got {doc_order!r}")
        if shots != "oracle" and (not isinstance(shots, int) or shots < 0):
            raise ValueError(f"shots must be a non-negative int or 'oracle'; got {shots!r}")
        if shots == "oracle" and gold is None:
            raise ValueError("shots='oracle' needs gold=<function returning the current task>")
        defaults = prompt_defaults(family)
        self.backend = backend
        self.demos = list(demos)
        self.shots = shots
        self.retriever_kind = retriever
        self.top_k_api = defaults.top_k_api if top_k_api is None else top_k_api
        self.doc_order = doc_order
        self.max_new_tokens = defaults.max_new_tokens if max_new_tokens is None else max_new_tokens
        if tool_calling == "native" and system_prompt == SYSTEM_PROMPT:
            system_prompt = NATIVE_SYSTEM_PROMPT
        self.system_prompt = system_prompt or None
        self.tool_calling = tool_calling
        self.native_action = native_action
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
        kwargs.setdefault("native_action", base.native_action)
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
        self._task_prompt: str | None = None
        """The benchmark's system prompt for the task (``info["system_prompt"]``), if any."""
        self._task_message: str | None = None
        """The benchmark's system message for native tool calling (``info["system_message"]``)."""
        self._opening = query
        self._conversation = 0
        """Which conversation of the episode this is (``info["conversation"]``; 0 first)."""
        self.history: list[tuple[str, str, str | None]] = []
        self.native_turns: list[NativeTurn] = []
        """The history as the model wrote it (native tool calling), turn by turn."""
        self._docs: list[str] = []
        self._demo_texts: list[str] = []

    def reset(self, observation: str, info: dict[str, Any]) -> None:
        """Retrieve the docs and demos for the new task."""
        # an episode of several conversations opens with its first, not with the task's
        # question (BFCL's memory: the question comes in the last)
        several = "conversation" in info
        self._reset_episode(observation if several else info.get("instruction", observation))
        self._task_prompt = info.get("system_prompt")
        self._task_message = info.get("system_message")
        self._opening = observation
        hints = self._hints(info)
        docs = list(
            info.get("api_doc_list") or ([info["api_docs"]] if info.get("api_docs") else [])
        )
        if docs and self.top_k_api > 0 and self.tool_calling == "text":
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
        return {
            "history": copy.deepcopy(self.history),
            "native_turns": copy.deepcopy(self.native_turns),
            "avoid": list(self.avoid),
            "conversation": (
                self._conversation,
                self.query,
                self._opening,
                self._task_prompt,
                self._task_message,
            ),
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore :meth:`get_state`'s result."""
        self.history = copy.deepcopy(state["history"])
        self.native_turns = copy.deepcopy(state.get("native_turns", []))
        self.avoid = list(state["avoid"])
        if "conversation" in state:
            (
                self._conversation,
                self.query,
                self._opening,
                self._task_prompt,
                self._task_message,
            ) = state["conversation"]

    # -- the two halves of a turn ------------------------------------------------------------------
    def prompt(self, observation: str, info: dict[str, Any]) -> Prompt:
        """The prompt for this turn (chat messages when there is a system prompt).

        With native tool calling, always chat messages
        (:func:`~toolgym.agents.native_prompting.native_messages`).

        An episode of several conversations (``info["conversation"]``, BFCL's memory categories)
        starts a new history at each: the observation is its request, and ``info``'s
        ``system_prompt`` (when it has one) the benchmark's prompt from then on.
        """
        conversation = info.get("conversation")
        if conversation is not None and conversation != self._conversation:
            self._open_conversation(int(conversation), observation, info)
        if self.tool_calling == "native":
            return self._native_prompt(observation, info)
        if self._task_prompt:
            # the benchmark's own prompt for the task (BFCL's prompt mode): it, the request, and
            # in a multi-step episode each action and what came of it (results, the next turn)
            return self._task_messages(observation)
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
            self._observed(observation)
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

    def _open_conversation(self, number: int, observation: str, info: dict[str, Any]) -> None:
        """Start the episode's conversation ``number``: a new request, no history."""
        self._conversation = number
        self.query = self._opening = observation
        self._task_prompt = info.get("system_prompt", self._task_prompt)
        self._task_message = info.get("system_message", self._task_message)
        self.history = []
        self.native_turns = []
        self.avoid = []

    def _observed(self, observation: str) -> None:
        """Give the last action of the history the observation it got (once)."""
        if self.history and self.history[-1][2] is None:
            thought, action, _ = self.history[-1]
            self.history[-1] = (thought, action, observation)

    def _task_messages(self, observation: str) -> Prompt:
        """The benchmark's prompt, the opening request, then each action and its observation."""
        messages = [
            {"role": "system", "content": str(self._task_prompt)},
            {"role": "user", "content": self._opening},
        ]
        if self.strategy == "single":
            return messages
        self._observed(observation)
        for _, action, seen in self.history:
            messages.append({"role": "assistant", "content": action})
            if seen is not None:
                messages.append({"role": "user", "content": seen})
        return messages

    def _native_prompt(self, observation: str, info: dict[str, Any]) -> Prompt:
        """The chat messages of a native tool-calling turn."""
        hints = self._hints(info)
        if self.strategy == "single":
            if hints.page_prompts:  # a fresh prompt on each page, no history
                self.query = observation
                self._demo_texts = [
                    render_demo(t, hints.demo_label)
                    for t in self._pick_demos(hints.action_language)
                ]
            turns = None
        else:
            if self.native_turns and self.native_turns[-1].observation is None:
                self.native_turns[-1].observation = observation
            self._observed(observation)
            turns = self.native_turns
        names = [t["function"]["name"] for t in info.get("tools") or () if "function" in t]
        # the benchmark's own system message (BFCL's memory and answer format) after the agent's
        system = "\n\n".join(p for p in (self.system_prompt, self._task_message) if p) or None
        return native_messages(
            system,
            self.query,
            self._demo_texts,
            turns,
            hints,
            avoid=self.avoid if turns is not None else (),
            tool_names=names,
        )

    def grammar(self, info: dict[str, Any]) -> ActionGrammar | None:
        """The grammar this turn's generation follows (``None``: unconstrained).

        A ReAct or DFSDT turn writes a thought first: one free line, then ``Action:`` and the
        action under the env's grammar (:meth:`ActionGrammar.after_thought`); under the
        benchmark's own prompt (``info["system_prompt"]``, BFCL's) the action alone.
        """
        if not self.constrained or self.grammar_of is None:
            return None
        grammar = self.grammar_of()
        if grammar is None or self.strategy == "single" or self._task_prompt:
            return grammar  # the benchmark's own prompt asks for the action alone
        return grammar.after_thought()

    def generation_tools(self, info: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The tools this turn's generation is offered: ``info["tools"]`` with native calling."""
        if self.tool_calling != "native":
            return None
        return list(info.get("tools") or ()) or None

    def parse(self, generation: Generation, info: dict[str, Any]) -> str:
        """The action in a generation (and, for ReAct, the turn is added to the history).

        With native tool calling, the generation's tool calls become the env's action
        (``native_action``); a reply without tool calls is read as a written action.
        """
        hints = self._hints(info)
        calls = generation.tool_calls if self.tool_calling == "native" else None
        if calls:
            assert self.native_action is not None  # checked at construction
            action = self.native_action(calls)
            if self.strategy != "single":
                first = sum(len(t.tool_calls or ()) for t in self.native_turns)
                thought = generation.text.strip()
                self.native_turns.append(NativeTurn(thought, history_calls(calls, first)))
                self.history.append((thought, action, None))
            return action
        if self.strategy == "single":
            return extract_action(generation.text, hints.action_language, self.extraction, hints)
        if self._task_prompt and self.tool_calling == "text":  # the action alone, no thought
            action = extract_action(generation.text, hints.action_language, self.extraction, hints)
            self.history.append(("", action, None))
            return action
        thought, action = extract_react(generation.text)
        self.history.append((thought, action, None))
        if self.tool_calling == "native":
            self.native_turns.append(NativeTurn(generation.text.strip(), None))
        return action

    def act_with_info(self, observation: str, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """One generation, its action, and what to record (prompt, raw generation, action)."""
        prompt = self.prompt(observation, info)
        tools = self.generation_tools(info)
        generation = generate_checked(
            self.backend,
            [prompt],
            max_new_tokens=self.max_new_tokens,
            stop=self.stop,
            **grammar_options([self.grammar(info)]),
            **({"tools": tools} if tools else {}),
        )[0]
        action = self.parse(generation, info)
        return action, self.record(prompt, generation, action)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The next action."""
        return self.act_with_info(observation, info)[0]

    @staticmethod
    def record(prompt: Prompt | None, generation: Generation, action: str) -> dict[str, Any]:
        """What the runner logs for one turn (with the model's ``tool_calls``, when it made some).

        ``prompt`` is ``None`` where the agent did not build it (a trainer's completion, scored).

        A backend's token trace (``prompt_ids``, ``completion_ids``, ``logprobs`` in
        ``generation.extra``, e.g. ``HFBackend(trace_tokens=True)``) is kept under those keys.
        """
        turn = {
            "prompt": prompt,
            "generation": generation.text,
            "finish_reason": generation.finish_reason,
            "completion_tokens": generation.completion_tokens,
            "action": action,
        }
        if generation.tool_calls is not None:
            turn["tool_calls"] = generation.tool_calls
        for key in TRACE_KEYS:
            if key in generation.extra:
                turn[key] = generation.extra[key]
        return turn


def _check_tool_calling(
    tool_calling: str,
    backend: LLMBackend,
    native_action: Callable[[list[dict[str, Any]]], str] | None,
    constrained: bool,
) -> None:
    """Raise ``ValueError`` for a tool-calling mode the agent cannot play."""
    if tool_calling not in TOOL_CALLING:
        raise ValueError(f"tool_calling must be one of {TOOL_CALLING}; got {tool_calling!r}")
    if tool_calling != "native":
        return
    if not getattr(backend, "native_tool_calling", False):
        raise ValueError(
            f"tool_calling='native' needs a backend with native tool calling; {backend.name} has "
            "none (use OpenAIBackend(native_tools=True) on a chat endpoint, an HFBackend whose "
            "chat template takes tools, or tool_calling='text')"
        )
    if native_action is None:
        raise ValueError(
            "tool_calling='native' needs native_action=<function turning tool calls into the "
            "env's action> (LLMAgent.for_env binds it)"
        )
    if constrained:
        raise ValueError(
            "constrained decoding follows the action language's grammar, which native tool "
            "calls do not write: use constrained=True with tool_calling='text'"
        )
