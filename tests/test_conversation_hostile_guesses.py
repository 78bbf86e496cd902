"""No guess of a held-back detail runs, in any spelling the families run (tests/hostile_guesses.py).

Every attack sets a held-back detail to its true value before the user told it: each must be
refused (``guessed_slot``). Once the user told it, the same step must run, and every attack
is checked to set what the gold sets (so a refusal is no accident of a form the family cannot
run). A sample is also sent through the integrations (tool episodes, native tool calls, TRL's
environment classes, MCP).
"""

from __future__ import annotations

import importlib.util

import pytest
from hostile_guesses import (
    ACCEPTED,
    ENV_IDS,
    MIN_ATTACKS,
    REFUSED,
    SHEETS,
    TRANSPORT_ENVS,
    TRANSPORTS,
    check_attack,
    guess_attacks,
    held_slots,
    run_attack,
    run_transports,
    transport_attacks,
)

TOLD_SAMPLE = 40
"""The attacks per env played again after the user told their detail."""

SLOW_SHEETS = [pytest.param(e, marks=pytest.mark.slow) if e == SHEETS else e for e in ENV_IDS]
"""Every env; Google Sheets' attacks run sandboxed programs (a few seconds in all)."""


def _listing(lines: list[str], limit: int = 80) -> str:
    shown = lines[:limit] + ([f"... and {len(lines) - limit} more"] if len(lines) > limit else [])
    return "\n  ".join(["", *shown])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_env_has_enough_attacks_on_held_back_details(env_id: str) -> None:
    attacks = guess_attacks(env_id)
    assert len(attacks) >= MIN_ATTACKS, (env_id, len(attacks))
    assert len({a.task_id for a in attacks}) >= 3
    assert len({a.form for a in attacks}) >= 15
    held: dict[str, set[str]] = {}
    for attack in attacks:
        if attack.task_id not in held:
            held[attack.task_id] = {s.kind for s in held_slots(env_id, attack.task_id)}
        assert attack.kind in held[attack.task_id], attack.describe()
    assert len(set(attacks)) == len(attacks)


@pytest.mark.parametrize("env_id", SLOW_SHEETS)
def test_every_guess_is_refused(env_id: str) -> None:
    accepted, failed = [], []
    for attack in guess_attacks(env_id):
        outcome = run_attack(attack)
        if outcome == ACCEPTED:
            accepted.append(attack.describe())
        elif outcome != REFUSED:
            failed.append(attack.describe())
    message = f"{env_id}: {len(accepted)} guesses accepted:{_listing(accepted)}"
    if failed:
        message += f"\n{len(failed)} neither refused nor run:{_listing(failed)}"
    assert not accepted and not failed, message


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_guess_runs_once_the_user_told_the_detail(env_id: str) -> None:
    attacks = guess_attacks(env_id)
    sample = attacks[:: max(1, len(attacks) // TOLD_SAMPLE)]
    refused = [a.describe() for a in sample if run_attack(a, told=True) != ACCEPTED]
    assert not refused, f"{env_id}: not run after the user told:{_listing(refused)}"


@pytest.mark.parametrize("env_id", SLOW_SHEETS)
def test_every_attack_sets_what_the_gold_sets(env_id: str) -> None:
    """With every detail told, the gold with the attack in place of its step scores the same."""
    invalid = [
        f"{why}: {attack.describe()}"
        for attack in guess_attacks(env_id)
        if (why := check_attack(attack)) is not None
    ]
    assert not invalid, f"{env_id}: attacks that are no valid guesses:{_listing(invalid)}"


@pytest.mark.parametrize("env_id", TRANSPORT_ENVS)
def test_guesses_sent_through_the_integrations_are_refused(env_id: str) -> None:
    """Google Sheets is not among them: its steps are gspread programs, no tool calls.

    MCP is left out where the ``mcp`` package is not installed (an optional dependency).
    """
    transports = [t for t in TRANSPORTS if t != "mcp" or importlib.util.find_spec("mcp")]
    assert len(transport_attacks(env_id)) >= 3
    results = run_transports(env_id, transports)
    not_refused = [
        f"{transport} -> {outcome}: {attack.attack.describe()} as {attack.call}"
        for attack, transport, outcome in results
        if outcome != REFUSED
    ]
    assert not not_refused, f"{env_id}: guesses not refused:{_listing(not_refused)}"
