"""``module_body``: the statements of a program with its lines' parses kept, as ``ast.parse``'s."""

from __future__ import annotations

import ast
import random

import pytest

from toolgym.tools import ast_parse
from toolgym.tools.ast_parse import module_body

LINES = (
    'API.set_location("Anchorage")',
    "API.set_buy_or_rent('buy')",
    "API.set_num_beds(2)",
    "API.search()",
    "d = Date(4, 10, 2026)",
    "API.select_home_type(['Co-op', \"Condo\"])",
    "x = [1, 2,",
    "3]",
    "]",
    "API.f(1,",
    "  2)",
    "    API.g()",
    "\tAPI.g()",
    'y = """',
    '"""',
    "'''",
    "API.h(1)  # a comment",
    "# only a comment",
    "",
    "   ",
    "a = 1; b = 2",
    "a = 1; import os",
    "import os",
    "from __future__ import annotations",
    "from __future__ import barry_as_FLUFL",
    "1 <> 2",
    "if True:",
    "else:",
    "def f():",
    "    return 1",
    "@dec",
    "class A: pass",
    "API.x(a=1, b=-2.5e3)",
    "z = API.y({'k': [1, (2, 3)]})",
    'API.z("caf\u00e9 \u00fcber")',
    "\u00e9t\u00e9 = 1",
    "x = (",
    ")",
    "pass",
    "lambda: 0",
    "x: int = 1",
    "x += 1",
    "API.w(1) \\",
    "+ 2",
    "a = 'x\\",
    "b'",
    "API.v(1)\r",
    "API.u(1)\x0c",
    "\x0cAPI.u(2)",
    "f'{a}'",
    "API.s('unterminated)",
    "x = ((((((1))))))",
    "API.t(*args)",
    "match x:",
    "    case 1: pass",
)


def dumped(body: list[ast.stmt]) -> list[str]:
    return [ast.dump(stmt, include_attributes=True) for stmt in body]


def outcome(source: str, parse: object) -> tuple[str, object]:
    try:
        return "ok", dumped(parse(source))  # type: ignore[operator]
    except SyntaxError as e:
        return "error", (type(e).__name__, e.msg, e.lineno, e.offset)
    except (ValueError, RecursionError, MemoryError) as e:
        return "error", type(e).__name__


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    ast_parse.forget()


def test_a_line_is_kept_at_its_second_sighting_and_read_from_the_memo_after() -> None:
    source = 'API.set_location("Austin")\nAPI.set_num_beds(2)\nAPI.search()'
    first = module_body(source)
    assert dumped(first) == dumped(ast.parse(source).body)
    assert not ast_parse._memo  # seen once: not kept
    second = module_body(source)
    assert dumped(second) == dumped(first) and len(ast_parse._memo) == 3
    third = module_body(source)
    assert [a is b for a, b in zip(second, third, strict=True)] == [True, True, True]
    other = module_body('API.set_location("Boston")\nAPI.set_num_beds(2)\nAPI.search()')
    assert other[1] is third[1] and other[0] is not third[0]
    assert dumped(other) == dumped(
        ast.parse('API.set_location("Boston")\nAPI.set_num_beds(2)\nAPI.search()').body
    )


def test_a_line_is_kept_by_its_number() -> None:
    module_body("API.a()\nAPI.b()")
    module_body("API.a()\nAPI.b()")
    moved = module_body("API.b()\nAPI.a()")
    assert [s.lineno for s in moved] == [1, 2]
    assert dumped(moved) == dumped(ast.parse("API.b()\nAPI.a()").body)


@pytest.mark.parametrize("seed", range(6))
def test_random_programs_parse_as_ast_parse_does(seed: int) -> None:
    rng = random.Random(seed)
    simple = [line for line in LINES[:6]] + ["API.search()", "pass", "# c", ""]
    for _ in range(700):
        pool = simple if rng.random() < 0.4 else LINES
        lines = [rng.choice(pool) for _ in range(rng.randint(1, 9))]
        source = rng.choice(("\n", "\n", "\r\n")).join(lines)
        if rng.random() < 0.1:
            source += "\n"
        assert outcome(source, module_body) == outcome(source, lambda s: ast.parse(s).body), source


def test_long_lines_and_sources_are_not_kept() -> None:
    long_line = "API.f(" + ", ".join(["1"] * 200) + ")"
    many = "\n".join(["API.f()"] * (ast_parse.MEMO_MAX_LINES + 1))
    for _ in range(3):
        assert dumped(module_body(long_line)) == dumped(ast.parse(long_line).body)
        assert len(module_body(many)) == ast_parse.MEMO_MAX_LINES + 1
    assert not ast_parse._memo


def test_the_memo_keeps_at_most_its_size_and_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ast_parse, "MEMO_LINES", 5)
    for k in range(20):
        module_body(f"API.f({k})\nAPI.search()")
        module_body(f"API.f({k})\nAPI.search()")
    assert len(ast_parse._memo) == 5
    assert (2, "API.search()") in ast_parse._memo  # used at every program: kept
    monkeypatch.setattr(ast_parse, "MEMO_CHARS", 40)
    for k in range(20):
        module_body(f"API.a_longer_name({k})")
        module_body(f"API.a_longer_name({k})")
    assert ast_parse._memo_chars == sum(len(line) for _, line in ast_parse._memo) <= 40


def test_lines_seen_once_are_forgotten_past_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ast_parse, "SEEN_LINES", 10)
    for k in range(25):
        module_body(f"API.f({k})")
    assert len(ast_parse._seen) <= 10 and not ast_parse._memo


def test_a_line_the_parser_warns_of_is_parsed_every_time() -> None:
    import warnings

    source = "x = 0in y\nAPI.search()"
    for _ in range(3):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module_body(source)
        assert caught, "every parse warns, as ast.parse's does"
    assert (1, "x = 0in y") not in ast_parse._memo and (2, "API.search()") in ast_parse._memo
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SyntaxError):
            ast.parse(source)
        with pytest.raises(SyntaxError):
            module_body(source)
