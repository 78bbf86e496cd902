"""``toolgym bench --steps``: every env's gold step and reset against CartPole's, in a table."""

from __future__ import annotations

from toolgym.evaluation.step_bench import bench_steps, format_steps, main


def test_steps_are_timed_against_cartpole_and_tabled() -> None:
    result = bench_steps(["toolbench/HomeSearch-v0", "toolbench/NoSuchEnv-v0"], samples=5, tasks=2)
    home = result["envs"]["toolbench/HomeSearch-v0"]
    assert home["samples"] == 5 and home["step_us"] > 0 and home["cartpole_us"] > 0
    assert home["step_ratio"] == home["step_us"] / home["cartpole_us"]
    assert "error" in result["envs"]["toolbench/NoSuchEnv-v0"]  # reported, not fatal
    table = format_steps(result)
    assert "toolbench/HomeSearch-v0" in table and "median step over 1 envs" in table
    then = {"envs": {"toolbench/HomeSearch-v0": dict(home, step_ratio=home["step_ratio"] * 2)}}
    assert "now/then" in format_steps(result, then, "HEAD~1")
    assert "0.50" in format_steps(result, then, "HEAD~1")
    slower = {"envs": {"toolbench/HomeSearch-v0": dict(home, step_us=home["step_us"] / 4)}}
    row = next(
        line
        for line in format_steps(result, slower, "HEAD~1").splitlines()
        if line.startswith("toolbench/HomeSearch-v0")
    )
    assert row.split()[-2:] == ["1.00", "4.00"]  # the same ratio, four times the µs


def test_the_command_checks_its_numbers(capsys) -> None:
    import pytest

    with pytest.raises(SystemExit):
        main(["--samples", "0"])
    assert "whole numbers >= 1" in capsys.readouterr().err
