"""Shared fixtures: every registered env id (the test family included) and the shared samples."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

import toolgym
from toolgym.envs import env_ids, family_of, register_family

try:  # installed (pip install -e examples/todo_family): its entry point registered it
    from todo_family.spec import SPEC as TODO_SPEC
except ImportError:  # not installed: imported from its folder and added to this process
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "todo_family"))
    from todo_family.spec import SPEC as TODO_SPEC

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"

register_family(TODO_SPEC)  # the worked example of docs/adding-a-family.md (idempotent)
ENV_IDS = [i for i in env_ids() if not family_of(i).needs]
"""Every env id these suites can make: an env that needs an option only its user has (BFCL's
web search: a search backend) is left out, and tested by its family's own tests."""
BUILTIN_IDS = [i for i in ENV_IDS if not i.startswith("toolbench/TodoList")]
INSTALLED_IDS = [i for i in ENV_IDS if not family_of(i).missing()]
"""The env ids whose families' packages are installed (BFCL's needs bfcl-eval): what modules
that build envs while they are collected iterate over."""
INSTALLED_BUILTIN_IDS = [i for i in BUILTIN_IDS if i in INSTALLED_IDS]
ENV_MODES = [(i, mode) for i in ENV_IDS for mode in family_of(i).action_modes]
"""Every env id with each action mode it offers (a conversation env plays call mode only)."""


@pytest.fixture(params=ENV_IDS)
def env_id(request: pytest.FixtureRequest) -> str:
    """Every registered env id: the built-in families and the test family."""
    return request.param


@pytest.fixture(params=BUILTIN_IDS)
def builtin_env_id(request: pytest.FixtureRequest) -> str:
    """The env ids of the families the package ships."""
    return request.param


RED_TEAM: Counter[str] = Counter(
    {"attempts": 0, "escapes": 0, "uncaught exceptions": 0, "hangs": 0}
)
"""What the red-team suite saw (printed at the end of the session)."""
FUZZ: Counter[str] = Counter()
"""Examples the property-based tests ran, per test (printed at the end of the session)."""
KILL_RESUME: Counter[str] = Counter()
"""Killed and resumed evaluations: kills, runs, runs equal to uninterrupted ones."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip, saying why, every test parametrized with an env that cannot be made here.

    Its family's package is absent (BFCL's envs read ``bfcl-eval``, installed by the README's
    test command but not by every CI stage), or it needs an option only its user has (BFCL's
    web search backend).
    """
    missing = {i: family_of(i).missing() for i in env_ids()}
    missing = {i: m for i, m in missing.items() if m}
    needs = {i: family_of(i).needs for i in env_ids() if family_of(i).needs}
    if not missing and not needs:
        return
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        values = [
            v for p in callspec.params.values() for v in (p if isinstance(p, tuple) else (p,))
        ]
        absent = next((v for v in values if isinstance(v, str) and v in missing), None)
        if absent is not None:
            reason = f"{absent} reads a package that is not installed: {'; '.join(missing[absent])}"
            item.add_marker(pytest.mark.skip(reason=reason))
            continue
        needing = next((v for v in values if isinstance(v, str) and v in needs), None)
        if needing is not None:
            option = ", ".join(name for name, _ in needs[needing])
            reason = (
                f"{needing} needs {option}=, which only its user has (its family's own tests "
                "give a stand-in)"
            )
            item.add_marker(pytest.mark.skip(reason=reason))


_COUNTERS = {"red_team": RED_TEAM, "fuzz": FUZZ, "kill_resume": KILL_RESUME}


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker, hand the counts to the controller, which prints them."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["toolgym_counts"] = {name: dict(c) for name, c in _COUNTERS.items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """Add a finished pytest-xdist worker's counts to this (the controller's) process."""
    counts = getattr(node, "workeroutput", {}).get("toolgym_counts", {})
    for name, values in counts.items():
        _COUNTERS[name].update(values)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the red-team and fuzzing counts (added over the workers when tests run in several)."""
    if RED_TEAM["attempts"]:
        counts = ", ".join(f"{k}: {v}" for k, v in RED_TEAM.items())
        terminalreporter.write_line(f"red team: {counts}")
    if FUZZ:
        total = sum(FUZZ.values())
        terminalreporter.write_line(
            f"fuzzing: {total} generated actions across {len(FUZZ)} property tests"
        )
    if KILL_RESUME:
        counts = ", ".join(f"{k}: {v}" for k, v in KILL_RESUME.items())
        terminalreporter.write_line(f"kill and resume: {counts}")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer Llama with the embedded model's tokenizer, saved in a folder.

    Fast to load and to run: for tests of the model side's plumbing (training loops, the GPU
    check), where what the model writes does not matter. Needs the ``hf`` extra and the model.
    """
    import transformers

    from toolgym.agents.backends.hf import HFBackend

    tokenizer = HFBackend(num_threads=1).tokenizer
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    transformers.set_seed(0)
    model = transformers.LlamaForCausalLM(config)
    folder = tmp_path_factory.mktemp("tiny-llama")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def samples_dir() -> Path:
    """The shared samples folder, or skip the test saying why."""
    if not SAMPLES.is_dir():
        pytest.skip(f"the original-format samples folder {SAMPLES} is absent")
    return SAMPLES


assert toolgym.__version__


CHAT_FAMILIES = {
    "home": "toolgym.families.home_search.chat:PROFILE",
    "trip": "toolgym.families.trip_booking.chat:PROFILE",
    "cat": "toolgym.families.cat_api.chat:PROFILE",
    "shop": "toolgym.families.web_shop.chat:PROFILE",
    "rapid": "toolgym.families.rapid_api.chat:PROFILE",
    "sheets": "toolgym.families.google_sheets.chat:PROFILE",
}
"""The six conversation families' question-set profiles, by a short name."""


@pytest.fixture(scope="session")
def chat_families() -> dict[str, tuple]:
    """Each conversation family's vocabulary and conversations, by its short name."""
    from toolgym.simulators.user.accuracy import load_family

    return {name: load_family(ref) for name, ref in CHAT_FAMILIES.items()}
