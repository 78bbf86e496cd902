"""The web shop: its reward, pages, search, catalog, goals, expert and environment."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.envs.protocol import task_env
from toolgym.families.web_shop.tasks import SUITE, SUITE_SHORT, demo_steps
from toolgym.families.web_shop.toolkit import shop_for
from toolgym.families.web_shop.world.catalog import (
    load_human_goals,
    load_products,
    make_catalog,
    make_product,
)
from toolgym.families.web_shop.world.goals import NO_CAP, make_goals, price_cap
from toolgym.families.web_shop.world.reward import (
    Goal,
    Purchase,
    get_reward,
    normalize_color,
    title_nouns,
    token_set_ratio,
    type_reward,
)
from toolgym.families.web_shop.world.search import SearchIndex, cached_index
from toolgym.families.web_shop.world.shop import SEP, Session, Shop

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples" / "webshop"
ENV = "toolbench/WebShop-v1"


# -- the reward ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "ratio"),
    [
        ("8", ("size", "8"), 100),
        ("black", ("color", "black"), 100),
        ("x-large", ("size", "large"), 83),
        ("cool powder snow", "powder snow", 100),
        ("essential oil", "essential oils", 96),
        ("", "anything", 0),
    ],
)
def test_token_set_ratio_gives_the_original_values(a, b, ratio) -> None:
    assert token_set_ratio(a, b) == ratio


def test_normalize_color_keeps_the_original_pitfalls() -> None:
    assert normalize_color("white | red") == "red"  # red comes before white in the list
    assert normalize_color("titanium") == "tan"
    assert normalize_color(("color", "black")) == "black"  # membership in a tuple
    assert normalize_color(("size", "8")) == ("size", "8")
    assert normalize_color("peppermint") == "mint"


def _purchase(**kw) -> Purchase:
    base = {
        "title": "Lumora Gentle Shampoo for Dry Hair, Tea Tree",
        "attributes": ("sulfate free", "paraben free"),
        "bullet_points": ("Long lasting: a shampoo you can count on",),
        "description": "A gentle shampoo with natural ingredients.",
        "query": "natural shampoo",
        "product_category": "Beauty › Hair Care › Shampoos",
        "options": ("16 fl oz", "lavender"),
        "price": 18.0,
        "nouns": ("lumora", "shampoo"),
    }
    return Purchase(**{**base, **kw})


def _goal(**kw) -> Goal:
    base = {
        "name": "Other Shampoo, Sulfate Free",
        "query": "natural shampoo",
        "product_category": "Beauty › Hair Care › Shampoos",
        "attributes": ("sulfate free", "natural ingredients"),
        "options": (("size", "16 fl oz"), ("scent", "coconut")),
        "price_upper": 20.0,
        "nouns": ("shampoo",),
    }
    return Goal(**{**base, **kw})


def test_every_reward_component_by_hand() -> None:
    # attributes: "sulfate free" matches an attribute, "natural ingredients" is in the
    # description; options: the size matches, the scent does not; the price is under the cap
    r = get_reward(_purchase(), _goal())
    assert (r.r_att, r.r_option, r.r_price, r.r_type) == (1.0, 0.5, True, 1.0)
    assert (r.w_att, r.w_option, r.w_price) == (0.4, 0.4, 0.2)
    assert r.reward == pytest.approx((2 + 1 + 1) / 5)
    over = get_reward(_purchase(price=25.0), _goal())
    assert over.r_price is False and over.reward == pytest.approx(3 / 5)
    none = get_reward(_purchase(), _goal(options=()))
    assert none.r_option is None and none.reward == pytest.approx(3 / 3)
    substring = get_reward(_purchase(attributes=()), _goal(attributes=("tea tree",)))
    assert substring.r_att == 1.0  # in the title


def test_the_type_factor() -> None:
    same = _goal(nouns=("shampoo",))
    assert type_reward(_purchase(), same)[0] == 1.0  # query match, title score 1
    elsewhere = {"query": "x", "product_category": "A › B › C"}
    # no query or category match: the title decides
    assert type_reward(_purchase(nouns=("a", "b")), _goal(**elsewhere, nouns=("a", "c")))[0] == 1.0
    four = ("a", "x", "y", "z")
    assert type_reward(_purchase(nouns=("a",)), _goal(**elsewhere, nouns=four))[0] == 1.0  # 0.25
    ten = tuple("abcdefghij")
    assert type_reward(_purchase(nouns=("a",)), _goal(**elsewhere, nouns=ten))[0] == 0.5
    eleven = tuple("abcdefghijk")
    assert type_reward(_purchase(nouns=("a",)), _goal(**elsewhere, nouns=eleven))[0] == 0.1
    assert type_reward(_purchase(nouns=("q",)), _goal(**elsewhere, nouns=ten))[0] == 0.0
    no_nouns = type_reward(_purchase(nouns=("a",)), _goal(**elsewhere, nouns=()))
    assert no_nouns[3] == 0.2 and no_nouns[0] == 0.5
    two_parts = _goal(query="x", product_category="Beauty › Hair Care › Conditioners")
    assert type_reward(_purchase(nouns=("q",)), two_parts)[2] is True  # two parts shared


def test_the_title_noun_heuristic() -> None:
    assert title_nouns("Premium Leather Running Shoes for Men, Black") == [
        "leather",
        "running",
        "shoes",
    ]


# -- pages ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shop():
    return shop_for(0, 1000)


def test_pages_have_webshop_structure(shop) -> None:
    s = Session(shop, "i need a red shoe")
    assert s.observation() == "WebShop [SEP] Instruction: [SEP] i need a red shoe [SEP] Search"
    assert s.clickables() == ["search"] and s.has_search_bar()
    assert s.step("search[Black Gray]").valid and s.keywords == ("black", "gray")
    page = s.observation().split(SEP)
    assert page[:5] == [
        "Instruction:",
        "i need a red shoe",
        "Back to Search",
        "Page 1 (Total results: 50)",
        "Next >",
    ]
    assert s.clickables()[:2] == ["back to search", "next >"] and len(s.clickables()) == 12
    s.step("click[next >]")
    assert s.observation().split(SEP)[3:6] == ["Page 2 (Total results: 50)", "< Prev", "Next >"]
    asin = s.clickables()[3]
    s.step(f"click[{asin}]")
    product = shop.by_asin[asin.upper()]
    nodes = s.observation().split(SEP)
    assert nodes[:4] == ["Instruction:", "i need a red shoe", "Back to Search", "< Prev"]
    assert nodes[-7:] == [
        product.title,
        f"Price: {product.price_tag}",
        f"Rating: {product.rating}",
        "Description",
        "Features",
        "Reviews",
        "Buy Now",
    ]
    first_group, values = next(iter(product.options.items()))
    assert nodes[4 : 5 + len(values)] == [first_group, *values]
    assert s.clickables()[:6] == [
        "back to search",
        "< prev",
        "description",
        "features",
        "reviews",
        "buy now",
    ]
    s.step(f"click[{values[0]}]")
    s.step("click[features]")
    assert s.observation().split(SEP)[4:] == list(product.bullet_points)
    s.step("click[< prev]")
    assert s.page == "item" and s.options == {first_group: values[0]}
    s.step("click[< prev]")
    assert s.page == "results" and s.page_number == 2
    s.step("click[back to search]")
    assert s.page == "search" and s.keywords == () and s.asin is None


def test_invalid_actions_are_no_ops_that_say_why(shop) -> None:
    s = Session(shop, "x")
    for action, words in (
        ("buy it", "an action is"),
        ("click[buy now]", "not clickable here"),
        ("click[search]", "not clickable"),
        ("jump[high]", "the actions are"),
        ("click[a[b]]", "the actions are"),  # WebShop's greedy pattern: the name is "click[a"
    ):
        before = s.state()
        result = s.step(action)
        assert not result.valid and words in result.message, action
        assert s.state() == before
    s.step("search[tea]")
    s.step("click[next >]")
    for _ in range(6):
        s.step("click[next >]")
    assert s.observation().endswith("Next >")  # past the end: an empty page


def test_a_purchase_ends_the_session(shop) -> None:
    goal = make_goals(shop.products[:50])[0]
    s = Session(shop, goal.instruction_text)
    s.step(f"search[{shop.by_asin[goal.asin].title}]")
    s.step(f"click[{goal.asin.lower()}]")
    assert s.step("click[buy now]").done and s.bought == (goal.asin, {})
    assert s.observation().split(SEP)[:7][-1] == goal.asin
    assert not s.step("click[back to search]").valid


# -- search and catalog --------------------------------------------------------------------------


def test_search_stems_drops_stop_words_and_breaks_ties_by_id() -> None:
    index = SearchIndex(
        ["the running shoe", "a red hat", "running shoes", "x"], ["B3", "B2", "B1", "B0"]
    )
    assert index.search("run the shoes")[:2] == ["B1", "B3"]  # same terms: ties by id
    assert index.search("the of a") == []
    assert index.search("unknownword") == []


def test_a_search_leaves_out_hits_the_catalog_does_not_hold() -> None:
    products = make_catalog(6)
    docs = [p.search_text() for p in products] + [products[0].search_text()]
    ids = [p.asin for p in products] + ["B000GONE00"]  # indexed, but no product of the shop
    shop = Shop(products[:5], SearchIndex(docs, ids))
    words = products[0].search_text().lower().split()[:6]
    hits = shop.search(words)
    assert hits and "B000GONE00" not in hits and products[5].asin not in hits
    assert hits == [a for a in shop.index.search(" ".join(words)) if a in shop.by_asin]
    whole = Shop(products, SearchIndex(docs[:6], ids[:6]))
    assert whole.search(words) == whole.index.search(" ".join(words))


def test_the_index_is_cached_on_disk(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TOOLGYM_CACHE", str(tmp_path))
    docs, ids = ["red shoes", "blue hat", "red hat"], ["B1", "B2", "B3"]
    built = cached_index(docs, ids, "k")
    assert list((tmp_path / "web_shop").iterdir())
    loaded = cached_index(docs, ids, "k")
    assert loaded.search("red hat") == built.search("red hat") == ["B3", "B1", "B2"][:3]


def test_the_catalog_is_fixed_by_seed_and_extends() -> None:
    small, large = make_catalog(20), make_catalog(60)
    assert small == large[:20] and make_product(7) == small[7]
    assert make_catalog(20, seed=1) != small
    categories = {p.category for p in make_catalog(300)}
    assert categories == {"beauty", "food", "fashion", "furniture", "electronics"}
    for p in large:
        assert p.options and 3 <= len(p.attributes) <= 5 and p.instruction and p.bullet_points
        assert set(p.instruction_attributes) <= set(p.attributes)


def test_the_original_product_files_load_and_repairs_are_reported() -> None:
    items = [
        {
            "asin": "B000TEST01",
            "name": "Toy Running Shoe",
            "full_description": "d",
            "small_description": "one bullet",
            "pricing": "$19.99 - $24.99",
            "customization_options": {
                "Color": [{"value": "Black", "image": None}, {"value": "White/Red", "image": None}]
            },
            "category": "fashion",
            "query": " Running Shoes ",
            "product_category": "A › B",
        },
        {"asin": "nan", "name": "broken"},
        {"asin": "B000TEST01", "name": "again"},
        {"asin": "B000TEST02", "name": "No Price", "pricing": ""},
    ]
    loaded = load_products(
        items,
        {
            "B000TEST01": {
                "attributes": ["non slip"],
                "instruction": "i need shoes",
                "instruction_attributes": ["non slip"],
            }
        },
    )
    assert [p.asin for p in loaded.products] == ["B000TEST01", "B000TEST02"]
    assert len(loaded.repairs) == 2
    shoe, other = loaded.products
    assert shoe.pricing == (19.99, 24.99) and shoe.price_tag == "$19.99 to $24.99"
    assert shoe.options == {"color": ("black", "white | red")}
    assert shoe.bullet_points == ("one bullet",) and shoe.query == "running shoes"
    assert other.pricing == (100.0,) and other.attributes == ("DUMMY_ATTR",)


@pytest.mark.skipif(
    not SAMPLES.is_dir(), reason="the WebShop samples (../shared/samples) are absent"
)
def test_the_human_goal_file_loads() -> None:
    goals = load_human_goals(str(SAMPLES / "human_goals.json"))
    assert len(goals) == 5 and goals[0].startswith("i want a 2.7 ounce stick")


def test_price_caps_follow_the_original_rule() -> None:
    for seed in range(20):
        upper, text = price_cap(23.5, seed)
        assert upper in (40.0, 50.0, 60.0) and text == f", and price lower than {upper:.2f} dollars"
    assert price_cap(985.0, 0) == (NO_CAP, "")


# -- tasks, expert and env -------------------------------------------------------------------------


def test_the_splits() -> None:
    test, demo_long, demo_short = (
        list(SUITE.load("test").values()),
        list(SUITE.load("demo").values()),
        list(SUITE_SHORT.load("demo").values()),
    )
    assert len(test) == 100 and len(demo_long) == 1500 and len(demo_short) == 200
    assert len({t.instruction for t in test + demo_long}) == 1600
    longest_short = max(len(t.gold[0].split("\n")) for t in demo_short)
    assert sum(len(t.gold[0].split("\n")) < longest_short for t in demo_long) < 200
    pairs = demo_steps(demo_short[0])
    assert pairs[0][1].startswith("search[") and pairs[-1][1] == "click[buy now]"
    results = [page for page, action in pairs if "Total results" in page]
    assert all(page.count(SEP + "B0") <= 1 for page in results)  # pruned to the product opened


def test_the_expert_reaches_reward_one_on_every_test_goal() -> None:
    env = gym.make(ENV)
    base = task_env(env)
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            obs, reward, terminated, truncated, info = env.step(action)
        assert terminated and reward == 1.0, task_id
        assert info["metrics"]["bought"] and info["metrics"]["r_type"] == 1.0


def test_the_env_reports_components_and_clickables() -> None:
    env = gym.make(ENV)
    obs, info = env.reset(options={"task_id": "test-000"})
    assert obs.startswith("WebShop [SEP] Instruction:")
    _, _, _, _, info = env.step("search[tea]")
    assert info["available_actions"]["clickables"][0] == "back to search"
    _, reward, terminated, _, info = env.step("click[nothing here]")
    assert info["error"]["category"] == "wrong_arguments" and not terminated and reward == 0.0
    asin = info["available_actions"]["clickables"][2]
    env.step(f"click[{asin}]")
    _, reward, terminated, _, info = env.step("click[buy now]")
    assert terminated and info["metrics"]["bought"] is True
    assert (reward == 1.0) == info["metrics"]["success"]
    assert set(info["metrics"]) >= {"reward", "r_type", "r_att", "r_price", "title_score"}


def test_the_rich_rendering() -> None:
    env = gym.make(ENV, observation="rich")
    obs, _ = env.reset(options={"task_id": "test-000"})
    assert obs.endswith("[button] Search [button_]")


@pytest.mark.slow
def test_a_catalog_of_100000_products(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TOOLGYM_CACHE", str(tmp_path))
    shop_for.cache_clear()
    try:
        shop = shop_for(0, 100_000)
        assert len(shop.products) == 100_000
        assert shop.products[:1000] == shop_for(0, 1000).products[:]
        hits = shop.search(["wireless", "earbuds", "noise", "cancelling"])
        assert len(hits) == 50
        assert all("earbud" in shop.by_asin[a].title.lower() for a in hits[:10])
        assert json.loads(json.dumps(hits)) == hits
    finally:
        shop_for.cache_clear()


def test_human_goals_are_made_as_webshop_makes_them() -> None:
    from toolgym.families.web_shop.backend import purchase_of
    from toolgym.families.web_shop.world.goals import human_goals
    from toolgym.families.web_shop.world.reward import get_reward

    products = make_catalog(5)
    p = products[0]
    value = next(iter(p.options.values()))[0]
    records = {
        p.asin: [
            {
                "instruction": "I want this one.",
                "instruction_attributes": list(p.attributes[:1]),
                "instruction_options": [value],
            },
            {"instruction": "no attributes", "instruction_attributes": []},
        ],
        "B0NOTHERE0": [{"instruction": "x", "instruction_attributes": ["y"]}],
    }
    (goal,) = human_goals(products, records)
    assert goal.instruction_text.startswith("I want this one") and goal.goal.options == (value,)
    bought = purchase_of(p, {"any": value})
    assert get_reward(bought, goal.goal).reward == 1.0


def test_actions_are_read_as_webshops_pattern_reads_them_in_linear_time() -> None:
    import random
    import re

    from toolgym.families.web_shop.world.shop import parse_action

    pattern = re.compile(r"^(.+)\[(.+)\]", re.DOTALL)
    rng = random.Random(0)
    for _ in range(20_000):
        text = "".join(rng.choice("a[]x \n") for _ in range(rng.randint(0, 12)))
        match = pattern.match(text)
        assert parse_action(text) == (None if match is None else match.groups()), text
    assert parse_action("[" * 16_000) is None  # the pattern takes about a second on this


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("i\u2019d like", "i'd like", 100),  # thefuzz: the apostrophe becomes a space
        ("caf\u00e9 latte", "caf latte", 100),  # U+0080..U+00FF are dropped
        ("\u7eff\u8336", "\u7eff\u8336", 100),  # CJK letters are kept
        ("\u7eff\u8336", "tea", 0),
        ("", "tea", 0),
    ],
)
def test_fuzzy_ratio_processes_text_as_thefuzz(a: str, b: str, expected: int) -> None:
    from toolgym.families.web_shop.world.reward import token_set_ratio

    assert token_set_ratio(a, b) == expected


def test_an_inline_task_that_names_no_goal_is_refused_not_scored() -> None:
    from toolgym.errors import TaskFileError

    env = gym.make("toolbench/WebShop-v1")
    task = {"prompt": "i want a red dress under 30 dollars", "completion": ["search[red dress]"]}
    with pytest.raises(TaskFileError, match="names its goal"):
        env.reset(options={"task": task})


def _webshop_files(folder: Path) -> dict[str, Path]:
    """Three products in WebShop's own file formats, with human instructions for each."""

    def record(asin: str, name: str, price: str, options: dict[str, list[str]]) -> dict:
        return {
            "asin": asin,
            "name": name,
            "full_description": f"{name}.",
            "small_description": [name.lower()],
            "pricing": price,
            "customization_options": {
                group: [{"value": v} for v in values] for group, values in options.items()
            },
            "category": "beauty",
            "query": name.split()[-1].lower(),
            "product_category": "Beauty & Personal Care",
        }

    items = [
        record("B000000001", "Mitchum Men Anti-Perspirant Stick", "$7.99",
               {"size": ["2.7 ounce", "3.4 ounce"]}),
        record("B000000002", "Sugar Free Chocolate Hard Candy", "$12.50 - $20.00",
               {"size": ["1 pound", "4 pound"]}),
        record("B000000003", "Blackout Curtains for Living Room", "$25.00",
               {"color": ["white", "navy"], "size": ["w52 x l54", "w52 x l84"]}),
    ]  # fmt: skip
    attributes = {
        "B000000001": {"attributes": ["long lasting"], "instruction": "i want a deodorant stick",
                       "instruction_attributes": ["long lasting"]},
        "B000000002": {"attributes": ["sugar free"], "instruction": "i want sugar free candy",
                       "instruction_attributes": ["sugar free"]},
        "B000000003": {"attributes": ["blackout"], "instruction": "i need blackout curtains",
                       "instruction_attributes": ["blackout"]},
    }  # fmt: skip
    human = {
        "B000000001": [{"instruction": "i want a 2.7 ounce mitchum men anti-perspirant stick.",
                        "instruction_attributes": ["long lasting"],
                        "instruction_options": ["2.7 ounce"]}],
        "B000000002": [{"instruction": "i would like a 4 pound bag of sugar free hard candy",
                        "instruction_attributes": ["sugar free"],
                        "instruction_options": ["4 pound"]},
                       {"instruction": "no attributes: WebShop skips it",
                        "instruction_attributes": [], "instruction_options": []}],
        "B000000003": [{"instruction": "i need white blackout curtains in size w52 x l54",
                        "instruction_attributes": ["blackout"],
                        "instruction_options": ["white", "w52 x l54"]}],
    }  # fmt: skip
    order = ["i need white blackout curtains in size w52 x l54", "not one of the goals"]
    paths = {}
    for name, data in (
        ("items_shuffle.json", items),
        ("items_ins_v2.json", attributes),
        ("items_human_ins.json", human),
        ("human_goals.json", order),
    ):
        paths[name] = folder / name
        paths[name].write_text(json.dumps(data))
    return paths


def test_webshop_files_play_their_human_and_synthetic_goals(tmp_path: Path) -> None:
    from toolgym.errors import ToolgymError
    from toolgym.families.web_shop.tasks.files import load_goal_tasks

    files = _webshop_files(tmp_path)
    products, attributes = str(files["items_shuffle.json"]), str(files["items_ins_v2.json"])
    human = load_goal_tasks(products, attributes, human_file=files["items_human_ins.json"])
    assert [t.meta["asin"] for t in human] == ["B000000001", "B000000002", "B000000003"]
    assert human[0].instruction.startswith("i want a 2.7 ounce mitchum men anti-perspirant stick,")
    env = gym.make("toolbench/WebShop-v1", product_file=products, attribute_file=attributes)
    for task in human:
        assert task.meta["expert"]
        env.reset(options={"task": task})
        for action in task_env(env).oracle_actions():
            _, reward, terminated, _, _ = env.step(action)
        assert terminated and reward == 1.0, task.instruction
    # the wrong option is a lower reward, as WebShop scores it
    env.reset(options={"task": human[2]})
    for action in (
        "search[blackout curtains]",
        "click[b000000003]",
        "click[navy]",
        "click[buy now]",
    ):
        _, reward, terminated, _, _ = env.step(action)
    assert terminated and 0.0 < reward < 1.0
    # human_goals.json picks and orders them
    picked = load_goal_tasks(
        products, attributes, human_file=files["items_human_ins.json"],
        instruction_file=files["human_goals.json"],
    )  # fmt: skip
    assert [t.meta["asin"] for t in picked] == ["B000000003"]
    synthetic = load_goal_tasks(products, attributes, goals="synthetic")
    assert len(synthetic) == 2 + 2 + 4  # one goal per option combination
    # the stored splits belong to the generated catalog, not to these files
    with pytest.raises(ToolgymError, match="world made from your files"):
        env.reset()
    with pytest.raises(ToolgymError, match="items_human_ins"):
        load_goal_tasks(products, attributes)
    for bad in ({"B000000001": "abc"}, {"B000000001": [{"instruction_attributes": 5}]}, []):
        files["items_human_ins.json"].write_text(json.dumps(bad))
        with pytest.raises(ToolgymError):
            load_goal_tasks(products, attributes, human_file=files["items_human_ins.json"])
    with pytest.raises(ValueError, match="limit"):
        load_goal_tasks(products, attributes, goals="synthetic", limit=-1)
    assert len(load_goal_tasks(products, attributes, goals="synthetic", limit=2)) == 2


def test_a_tasks_goal_is_made_alone_as_the_loop_over_its_products_goals_finds_it(shop) -> None:
    import random

    from toolgym.families.web_shop.world.goals import product_goal, product_goals

    rng = random.Random(3)
    checked = 0
    for product in rng.sample(list(shop.by_asin.values()), 300):
        goals = product_goals(product, shop.seed)
        names = sorted(product.options)
        cases: list = [g.goal_options for g in goals[:4]]
        cases += [{}, {"size": "none such"}, {n: "none such" for n in names}]
        if goals:
            cases.append({**goals[0].goal_options, "extra": "x"})
        if len(names) > 1:
            cases.append({n: product.options[n][0] for n in names[:-1]})  # one option short
        for options in cases:
            looped = next((g for g in goals if g.goal_options == options), None)
            assert product_goal(product, options, shop.seed) == looped
            checked += 1
    assert product_goal(product, ["not", "a", "mapping"], shop.seed) is None
    assert checked > 1000
