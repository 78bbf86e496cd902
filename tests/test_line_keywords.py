"""``Action:`` and ``Action Input:`` found from the keyword give the line pattern's own matches."""

from __future__ import annotations

import json
import random
import re

import pytest

from toolgym.agents import extraction
from toolgym.families.rapid_api.actions import ACTION, ACTION_INPUT, parse_actions
from toolgym.families.rapid_api.answers import action_calls
from toolgym.tools import line_keywords
from toolgym.tools.line_keywords import LineKeyword

_PIECES = (
    *("Action", "Action Input", "action input", "ACTION", "Input", ":", " :", "x", "f", "{}"),
    *("Action:", "xAction: ", "Action Input: ", '{"q": 1}', "Action\n:"),
    *(" ", "  ", "\n", "\n\n", "\t", "\r", "\r\n", "\u2028", "\x0b", "\xa0", "\u3000"),
)


def _span(found: re.Match[str] | None) -> tuple[tuple[int, int], tuple[str | None, ...]] | None:
    return None if found is None else (found.span(), found.groups())


def test_str_isspace_is_what_the_pattern_s_whitespace_matches() -> None:
    space = re.compile(r"\s")
    assert all(chr(c).isspace() == bool(space.match(chr(c))) for c in range(0x110000))


def test_a_keyword_search_gives_the_line_pattern_s_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(line_keywords, "SHORT_CHARS", 0)  # every text read by its keywords
    rng = random.Random(2)
    as_written = {  # each keyword's pattern as the readers wrote it before
        ACTION: re.compile(r"(?:^|\n)\s*Action\s*:\s*(.*)"),
        ACTION_INPUT: re.compile(r"(?:^|\n)\s*Action\s+Input\s*:\s*", re.IGNORECASE),
        extraction._ACTION_INPUT: re.compile(r"\n\s*Action Input:\s*"),
    }
    for keyword in (*as_written, LineKeyword(r"Act(ion)?\s*:"), LineKeyword("x", at_start=False)):
        pattern = as_written.get(keyword, keyword.pattern)
        for _ in range(3000):
            text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
            for pos in {0, rng.randint(0, len(text)), rng.randint(0, len(text))}:
                got, expected = keyword.search(text, pos), pattern.search(text, pos)
                assert _span(got) == _span(expected), (text, pos)
            got_all = [_span(m) for m in keyword.finditer(text)]
            assert got_all == [_span(m) for m in pattern.finditer(text)], text


def test_react_turns_split_at_the_action_input_as_before() -> None:
    text = "go\nAction: f" + "\n" * 5000 + 'Action Input: {"q": 1}\nObservation: x'
    assert extraction.extract_react(text) == ("go", 'f\nAction Input: {"q": 1}')
    assert extraction.extract_react("Action Input: {}") == ("", "Action Input: {}")


def test_blank_lines_read_as_before() -> None:
    text = 'Thought: go\n\n\n   \n\tAction:  search\n \n Action Input: {"q": 1}\nObservation: x'
    assert [(c.name, c.arguments) for c in parse_actions(text)] == [("search", {"q": 1})]
    assert action_calls(text) == [("search", {"q": 1})]
    runs = "Action: f\n" * 16 + "\n" * 16_000  # each call searched past the run of blank lines
    assert [c.name for c in parse_actions(runs)] == ["f"] * 16


def test_recorded_answers_read_their_inputs_as_the_rest_of_the_text_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(line_keywords, "SHORT_CHARS", 0)  # every text read by its keywords
    rng = random.Random(4)
    for _ in range(2000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30))).strip()
        expected = []  # the reading before: each input searched in the text after its action
        for match in ACTION.pattern.finditer(text):
            name = match.group(1).strip()
            if name.lower().startswith("input"):
                continue
            rest = text[match.end() :]
            found = ACTION_INPUT.pattern.search(rest)
            arguments: object = {}
            if found is not None:
                following = rest[found.end() :].lstrip()
                try:
                    arguments, _ = json.JSONDecoder().raw_decode(following)
                except ValueError:
                    arguments = following.split("\n", 1)[0]
            expected.append((name, arguments))
        if ACTION.pattern.search(text) is None and ACTION_INPUT.pattern.search(text) is not None:
            continue  # read with "Action: " put first (compared through the same code)
        if text.strip()[:1] in ("{", "["):
            continue  # read as JSON
        assert action_calls(text) == expected, text
