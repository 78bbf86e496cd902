"""The household simulator, its three spellings, its tasks and its scores."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.envs.protocol import task_env
from toolgym.errors import TaskFileError
from toolgym.families.virtual_home.backend import household
from toolgym.families.virtual_home.objects import valid_object_lists
from toolgym.families.virtual_home.tasks import SUITE, load_plans
from toolgym.families.virtual_home.tasks.grounding import ground, lcs_score
from toolgym.families.virtual_home.world import (
    ACTIONS,
    HOMES,
    ActionFailed,
    Household,
    ScriptError,
    execute,
    from_call,
    from_phrase,
    from_script,
    make_home,
    parse_plan,
    prepare,
    program_steps,
    run_steps,
    to_call,
    to_phrase,
    to_script,
)
from toolgym.families.virtual_home.world.conditions import holds, unmet
from toolgym.families.virtual_home.world.graph import CHARACTER, SceneGraph
from toolgym.families.virtual_home.world.homes import ROOM_TEMPLATES

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples" / "languageplanner"
needs_samples = pytest.mark.skipif(
    not SAMPLES.is_dir(), reason="the language-planner samples (../shared/samples) are absent"
)
ENV = "toolbench/VirtualHome-v0"


def run(house: Household, program: str) -> list[str]:
    result = run_steps(house, program_steps(program), bind=False)
    if result.failure is not None:
        raise result.failure
    return result.messages


def failure(house: Household, program: str) -> ActionFailed:
    with pytest.raises(ActionFailed) as caught:
        run(house, program)
    return caught.value


# -- the three spellings -------------------------------------------------------------------------


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.name)
def test_every_action_round_trips_through_the_three_spellings(action) -> None:
    objects = ("dish_soap", "kitchen_counter")[: action.arity]
    step = from_call(f"Agent.{action.name}({', '.join(objects)})")
    assert step.objects == objects
    assert from_script(to_script(step)) == step
    assert from_phrase(to_phrase(step)) == step
    assert from_phrase(to_phrase(step, spaces=False)) == step
    assert from_call(to_call(step)) == step


def test_the_mapping_table_of_the_docs() -> None:
    assert to_script(from_call("Agent.Put(cup, table)")) == "[PutBack] <cup> (1) <table> (1)"
    assert to_script(from_call("Agent.PutBack(cup)")) == "[PutObjBack] <cup> (1)"
    assert to_script(from_call("Agent.TakeOff(shoes)")) == "[PutOff] <shoes> (1)"
    assert to_call(from_phrase("Step 3: Put cup on table")) == "Agent.Put(cup, table)"
    assert to_call(from_phrase("Walk to home office")) == "Agent.WalkTo(home_office)"
    assert to_call(from_phrase("put on shoes")) == "Agent.PutOn(shoes)"  # wearing, not "put on"
    assert to_call(from_phrase("Put back novel")) == "Agent.PutBack(novel)"
    assert to_call(from_phrase("Pour milk into cup")) == "Agent.Pour(milk, cup)"
    assert to_call(from_script("[release] <cup> (2)")) == "Agent.Drop(cup)"
    assert to_phrase(from_call("Agent.StandUp()")) == "Stand up"


def test_bad_spellings_say_what_was_expected() -> None:
    with pytest.raises(ScriptError, match=r"unknown action Agent\.Fly"):
        from_call("Agent.Fly(kitchen)")
    with pytest.raises(ScriptError, match="takes 2 object"):
        from_call("Agent.Put(cup)")
    with pytest.raises(ScriptError, match="script line"):
        from_script("Walk kitchen")
    with pytest.raises(ScriptError, match="none of the 40"):
        from_phrase("Dance wildly")
    with pytest.raises(ScriptError, match="line 3 of plan"):
        parse_plan("Task: x\nStep 1: Walk to kitchen\nStep 2: Juggle")


@needs_samples
def test_the_real_action_strings_parse_and_name_catalogued_objects() -> None:
    from toolgym.families.virtual_home.world.classes import canonical

    actions = json.loads((SAMPLES / "available_actions.json").read_text())
    for text in actions:
        step = from_phrase(text)
        assert to_phrase(step, spaces=False) == text
        assert all(canonical(o) for o in step.objects), text


@needs_samples
def test_real_plans_load_as_tasks_and_run() -> None:
    plans = load_plans(SAMPLES / "available_examples.json")
    assert not plans.issues and len(plans.tasks) == 5
    titles = [t.instruction for t in plans.tasks]
    assert titles[:2] == ["Write an email", "Sleep"]
    assert plans.tasks[1].setup == {"home": 0, "states": {"floor_lamp": "ON"}}  # it switches it off
    ran = 0
    for task in plans.tasks:
        for home in range(HOMES):
            house = household(0, home)
            prepare(house, dict(task.setup["states"]))
            ran += run_steps(house, program_steps(task.gold[0])).ok
    assert ran >= 20  # plans written for other homes run in most of ours
    env = gym.make(ENV)
    env.reset(options={"task": plans.tasks[3]})
    _, reward, terminated, _, info = env.step(plans.tasks[3].gold[0])
    assert terminated and reward == 1.0 and info["metrics"]["strict_executable"]


WRITTEN_PLANS = {
    # the starting posture and clothing follow from the plan
    "Go to bed": ["walk to bedroom", "take off shoes", "walk to bed", "lie on bed", "sleep"],
    "Get up": ["wake up", "stand up", "walk to bathroom"],
    "Leave the couch": ["stand up", "walk to kitchen", "find fridge", "open fridge"],
    # a class named again in another room means that room's instance
    "Turn on lights": [
        "walk to living room", "find light", "switch on light",
        "walk to bedroom", "find light", "switch on light",
    ],
    # what can be picked up can be pushed; a container takes a pour
    "Change channel": [
        "walk to living room", "find remote control", "grab remote control",
        "push remote control",
    ],
    "Do laundry": [
        "walk to bathroom", "find detergent", "grab detergent", "find washing machine",
        "open washing machine", "pour detergent into washing machine",
        "close washing machine", "switch on washing machine",
    ],
}  # fmt: skip


@pytest.mark.parametrize("title", sorted(WRITTEN_PLANS))
def test_written_plans_run_in_some_home(title: str, tmp_path: Path) -> None:
    steps = "\n".join(f"Step {k}: {s}" for k, s in enumerate(WRITTEN_PLANS[title], start=1))
    path = tmp_path / "plans.json"
    path.write_text(json.dumps([f"Task: {title}\n{steps}"]))
    (task,) = load_plans(path).tasks
    failures = []
    for home in range(HOMES):
        house = household(0, home)
        prepare(house, dict(task.setup["states"]))
        result = run_steps(house, program_steps(task.gold[0]))
        if result.ok:
            return
        failures.append(str(result.failure))
    pytest.fail(f"{title} runs in no home: {failures}")


def test_presupposed_posture_and_clothing_play_in_the_env(tmp_path: Path) -> None:
    plans = [
        "Task: Get up\nStep 1: Stand up\nStep 2: Walk to bedroom",
        "Task: Undress\nStep 1: Walk to bedroom\nStep 2: Take off shoes",
        "Task: Odd\nStep 1: Walk to kitchen\nStep 2: Take off fridge",  # not clothes
    ]
    path = tmp_path / "plans.json"
    path.write_text(json.dumps(plans))
    tasks = load_plans(path).tasks
    assert tasks[0].setup["states"] == {"character": "SITTING"}
    assert tasks[1].setup["states"] == {"shoes": "WORN"} and tasks[2].setup["states"] == {}
    env = gym.make(ENV)
    for task in tasks[:2]:
        env.reset(options={"task": task})
        _, reward, terminated, _, info = env.step(task.gold[0])
        assert terminated and info["metrics"]["strict_executable"], info
    bad = {"home": 0, "states": {"character": "ON"}}
    with pytest.raises(TaskFileError, match="SITTING or LYING"):
        env.reset(
            options={"task": {"prompt": "x", "completion": ["Agent.StandUp()"], "setup": bad}}
        )
    bad = {"home": 0, "states": {"fridge": "WORN"}}
    with pytest.raises(TaskFileError, match="only clothes"):
        env.reset(
            options={"task": {"prompt": "x", "completion": ["Agent.StandUp()"], "setup": bad}}
        )


def test_a_held_instance_is_not_what_grabbing_means() -> None:
    house = Household(0)
    run(house, "Agent.WalkTo(home_office)\nAgent.Find(paper)\nAgent.Grab(paper)")
    (first,) = house.held()
    run(house, "Agent.Find(paper)\nAgent.Grab(paper)")  # another sheet
    assert len(house.held()) == 2 and first in house.held()
    # a state failure on the only instance close at hand still stands
    with pytest.raises(ActionFailed, match="is off already"):
        run(Household(0), "Agent.WalkTo(kitchen)\nAgent.Find(stove)\nAgent.SwitchOff(stove)")


# -- homes ---------------------------------------------------------------------------------------


def test_homes_are_fixed_by_seed_and_differ() -> None:
    datas = [make_home(h).to_data() for h in range(HOMES)]
    assert datas[3] == make_home(3).to_data()
    assert len({json.dumps(d, sort_keys=True) for d in datas}) == HOMES
    for data in datas:
        rooms = {n["class_name"] for n in data["nodes"] if n["category"] == "Rooms"}
        assert {"kitchen", "bathroom", "bedroom", "living_room"} <= rooms
        assert len(data["nodes"]) > 120


def test_a_scene_graph_round_trips_as_virtualhome_json() -> None:
    house = Household(2)
    run(house, "Agent.WalkTo(kitchen)\nAgent.WalkTo(cutting_board)\nAgent.Grab(cutting_board)")
    data = json.loads(json.dumps(house.to_data()))
    again = Household.from_data(data)
    assert again.to_data() == house.to_data()
    edge = data["graph"]["edges"][0]
    assert set(edge) == {"from_id", "relation_type", "to_id"}
    assert set(data["graph"]["nodes"][0]) == {
        "id",
        "class_name",
        "category",
        "properties",
        "states",
    }
    with pytest.raises(ValueError, match="VirtualHome"):
        SceneGraph.from_data({"nodes": [{"id": 1}]})


def test_every_class_the_templates_use_is_catalogued() -> None:
    from toolgym.families.virtual_home.world.classes import CLASSES

    for areas in ROOM_TEMPLATES.values():
        for items in areas.values():
            for item in items:
                assert item.name in CLASSES
                assert all(name in CLASSES for name, _ in (*item.on, *item.inside))


# -- the reference outcomes ------------------------------------------------------------------------


def test_reference_outcomes() -> None:
    run(
        Household(0),
        "Agent.WalkTo(kitchen)\nAgent.WalkTo(microwave)\nAgent.Find(microwave)\n"
        "Agent.Open(microwave)\nAgent.Close(microwave)",
    )
    assert (
        failure(Household(0), "Agent.WalkTo(kitchen)\nAgent.Grab(microwave)").kind == "not_allowed"
    )
    twice = failure(Household(0), "Agent.WalkTo(fridge)\nAgent.Open(fridge)\nAgent.Open(fridge)")
    assert "is not closed" in twice.message
    far = failure(Household(0), "Agent.WalkTo(bedroom)\nAgent.Grab(pillow)")
    assert far.kind == "precondition" and "not close to the pillow" in far.message
    run(
        Household(0),
        "Agent.WalkTo(pillow)\nAgent.Grab(pillow)\nAgent.WalkTo(couch)\nAgent.Put(pillow, couch)",
    )
    run(
        Household(0),
        "Agent.WalkTo(living_room)\nAgent.WalkTo(television)\n"
        "Agent.SwitchOn(television)\nAgent.TurnTo(television)\nAgent.Watch(television)",
    )
    seat = failure(Household(0), "Agent.WalkTo(bathroom)\nAgent.SitOn(toilet)")
    assert "not close to the toilet" in seat.message


def test_the_named_precondition_violations() -> None:
    closed = failure(Household(0), "Agent.WalkTo(fridge)\nAgent.Find(milk)\nAgent.Grab(milk)")
    assert closed.kind == "precondition" and "inside the fridge, which is closed" in closed.message
    house = Household(0)
    shut = failure(
        house,
        "Agent.WalkTo(cup)\nAgent.Grab(cup)\nAgent.WalkTo(microwave)\nAgent.PutIn(cup, microwave)",
    )
    assert "microwave is closed; open it first" in shut.message
    full = failure(
        Household(0),
        "Agent.WalkTo(cup)\nAgent.Grab(cup)\nAgent.Grab(bowl)\n"
        "Agent.WalkTo(chair)\nAgent.SitOn(chair)",
    )
    assert "sitting down needs a free hand" in full.message
    dark = Household(0)
    prepare(dark, {"floor_lamp": "OFF"})
    program = "Agent.WalkTo(floor_lamp)\nAgent.PlugOut(floor_lamp)\nAgent.SwitchOn(floor_lamp)"
    lamp = failure(dark, program)
    assert "unplugged; plug it in first" in lamp.message
    hands = failure(
        Household(0), "Agent.WalkTo(cup)\nAgent.Grab(cup)\nAgent.Grab(bowl)\nAgent.Grab(spoon)"
    )
    assert "grabbing needs a free hand; both hands hold something (cup, bowl)" in hands.message


def test_a_failed_step_changes_nothing_and_effects_hold() -> None:
    house = Household(0)
    run(house, "Agent.WalkTo(cup)\nAgent.Grab(cup)")
    before = house.to_data()
    with pytest.raises(ActionFailed):
        execute(house, from_call("Agent.SitOn(cup)"))
    assert house.to_data() == before
    assert holds(house, ["relation", "character", "HOLDS", "cup"])
    run(house, "Agent.WalkTo(sink)\nAgent.Put(cup, sink)\nAgent.Grab(cup)\nAgent.PutBack(cup)")
    assert not holds(house, ["relation", "character", "HOLDS", "cup"])


def test_an_object_a_home_lacks_is_placed_by_its_class_rules() -> None:
    from toolgym.families.virtual_home.world.classes import CLASSES

    house = Household(0)
    assert not house.graph.of_class("food_pizza")
    run(house, "Agent.WalkTo(food_pizza)")
    (pizza,) = house.graph.of_class("food_pizza")
    g = house.graph
    supports = {(r, g.nodes[t].class_name) for r in ("ON", "INSIDE") for t in g.targets(pizza, r)}
    assert supports & set(CLASSES["food_pizza"].places)
    with pytest.raises(ActionFailed) as caught:
        run(Household(0), "Agent.WalkTo(flux_capacitor)")
    assert caught.value.kind == "unknown_object"


def test_a_room_the_home_lacks_has_a_stand_in() -> None:
    without = next(h for h in range(HOMES) if not make_home(h).of_class("dining_room"))
    house = household(0, without)
    run(house, "Agent.WalkTo(dining_room)")
    assert house.name(house.room) in ("kitchen", "living_room")


def test_a_whole_program_binds_the_chair_at_the_desk() -> None:
    program = (
        "Agent.WalkTo(chair)\nAgent.SitOn(chair)\nAgent.Find(computer)\nAgent.SwitchOn(computer)"
    )
    homes = [h for h in range(HOMES) if len(make_home(h).of_class("chair")) > 1]
    assert homes
    for home in homes:
        assert run_steps(household(0, home), program_steps(program)).ok, home


# -- tasks and scores --------------------------------------------------------------------------------


@pytest.mark.parametrize("split", ["test", "demo"])
def test_every_gold_runs_grounds_and_reaches_its_goal_in_its_home(split: str) -> None:
    tasks = list(SUITE.load(split).values())
    assert len(tasks) == {"test": 100, "demo": 83}[split]
    lists = valid_object_lists()
    for task in tasks:
        for gold in task.gold:
            assert ground(gold, lists).executable, (task.task_id, gold)
            for bind in (True, False):
                house = household(0, task.setup["home"])
                prepare(house, dict(task.setup["states"]))
                assert unmet(house, task.meta["conditions"]), task.task_id  # not done yet
                result = run_steps(house, program_steps(gold), bind)
                assert result.ok, (task.task_id, result.failure)
                assert not unmet(house, task.meta["conditions"]), task.task_id


def test_the_splits_have_distinct_activities_in_every_home() -> None:
    tasks = [*SUITE.load("test").values(), *SUITE.load("demo").values()]
    assert len({t.instruction for t in tasks}) == len(tasks) >= 183
    assert {t.setup["home"] for t in tasks} == set(range(HOMES))
    assert len({t.meta["activity"] for t in tasks}) >= 30


def test_the_original_metrics() -> None:
    lists = {"Agent.Put": {"object1": ["cup"], "object2": ["table"]}, "Agent.Sleep": {}}
    assert ground("Agent.Put(cup, table)", lists).executable
    assert not ground("Agent.Put(cup)", lists).executable
    assert not ground("Agent.Put(cup, table, bed)", lists).executable
    assert not ground("Agent.Sleep", lists).executable  # no parentheses
    assert ground("Agent.Sleep()\nTask: next\nAgent.Fly()", lists).lines == ["Agent.Sleep()"]
    # exact string equality: a missing space after the comma is another line
    assert lcs_score(["Agent.Put(cup,table)"], ["Agent.Put(cup, table)"]) == 0.0
    assert lcs_score(["a", "x", "b"], ["a", "b", "c", "d"]) == 0.5


def test_the_env_reports_four_scores_and_keeps_the_lcs_of_a_failed_program() -> None:
    env = gym.make(ENV)
    env.reset(options={"task_id": "test-000"})
    gold = task_env(env).oracle_actions()[0]
    lines = gold.splitlines()
    broken = "\n".join([*lines[:1], "Agent.SitOn(chair)", *lines[1:]])
    env.reset(options={"task_id": "test-000"})
    _, reward, _, _, info = env.step(broken)
    metrics = info["metrics"]
    assert metrics["executable"] and not metrics["strict_executable"] and not metrics["success"]
    assert reward == pytest.approx(len(lines) / (len(lines) + 1))
    assert info["error"]["category"] in ("precondition", "wrong_arguments")
    env.reset(options={"task_id": "test-000"})
    _, reward, _, _, info = env.step(lines[0])
    assert not info["metrics"]["goal"] and info["error"]["category"] == "goal_not_met"


def test_call_mode_observes_the_home_and_a_failed_step_changes_nothing() -> None:
    env = gym.make(ENV, action_mode="call")
    env.reset(options={"task_id": "test-000"})
    obs, *_ = env.step("Agent.WalkTo(kitchen)")
    assert "You are in the kitchen" in obs
    state = task_env(env).get_state()["episode"]["backend"]
    obs, _, _, _, info = env.step("Agent.SitOn(fridge)")
    assert info["error"]["category"] == "wrong_arguments" and "not something to sit on" in obs
    after = task_env(env).get_state()["episode"]["backend"]["house"]
    assert after.to_data() == state["house"].to_data()
    obs, *_ = env.step('{"name": "WalkTo", "arguments": {"object": "fridge"}}')
    assert "next to the fridge" in obs
    _, reward, terminated, _, info = env.step("finish")
    assert terminated and reward < 1.0 and info["metrics"]["executable"] is False


def test_the_docs_list_allowed_objects_in_the_original_format() -> None:
    env = gym.make(ENV)
    _, info = env.reset(seed=0)
    docs = dict(zip(task_env(env).tools.names, info["api_doc_list"], strict=True))
    assert docs["LieOn"].startswith("# Lie on an object. 'object' can only be: [")
    assert docs["LieOn"].endswith("]. \nAgent.LieOn(object)\n")
    assert "'object1' can only be:" in docs["Put"] and "'object2' can only be:" in docs["Put"]
    assert docs["StandUp"] == "# Stand up.\nAgent.StandUp()\n"
    lists = valid_object_lists()
    assert {"bed", "couch"} <= set(lists["Agent.LieOn"]["object"])
    assert lists["Agent.Sleep"] == {}
    assert CHARACTER == 1


# -- hardening -------------------------------------------------------------------------------------


def test_a_json_call_cannot_smuggle_lines_into_the_scored_text() -> None:
    env = gym.make(ENV, action_mode="call")
    env.reset(options={"task_id": "test-044"})
    gold = task_env(env).oracle_actions()
    smuggled = "kitchen)\n" + "\n".join(gold[:-1]) + "\nAgent.WalkTo(kitchen"
    _, _, _, _, info = env.step(json.dumps({"name": "WalkTo", "arguments": {"object": smuggled}}))
    assert info["error"]["category"] == "wrong_arguments"
    assert len(info["error"]["message"]) < 400
    _, reward, terminated, _, _ = env.step("finish")
    assert terminated and reward == 0.0


def test_grounding_reads_the_text_as_written_once() -> None:
    env = gym.make(ENV)
    env.reset(options={"task_id": "test-044"})
    gold = task_env(env).oracle_actions()[0]
    numbered = "\n".join(f"1. 2. {line}" for line in gold.splitlines())
    _, reward, _, _, info = env.step(numbered)
    assert reward == 0.0 and not info["metrics"]["executable"]  # "2. Agent..." is not a call
    lists = {"Agent.WalkTo": {"object": ["kitchen"]}, "Agent.Find": {"object": ["cup"]}}
    assert not ground("Agent.WalkTo (kitchen)", lists).executable  # the API is not stripped
    assert ground("Agent.WalkTo(kitchen)\n1.", lists).non_executable == [""]
    assert ground("Agent.WalkTo(kitchen)\rAgent.Find(cup)", lists).lines == [
        "Agent.WalkTo(kitchen)\rAgent.Find(cup)"
    ]
    assert ground("", lists).executable  # an empty prediction does not crash


def test_a_bad_inline_task_is_refused_at_reset() -> None:
    from toolgym.errors import TaskFileError

    env = gym.make(ENV)
    for bad in (
        {"prompt": "x", "completion": ["Agent.WalkTo(kitchen)"], "conditions": [["state", "tv"]]},
        {"prompt": "x", "completion": ["Agent.Fly(kitchen)"]},
        {"prompt": "x", "completion": ["Agent.WalkTo(kitchen)"], "setup": {"home": -1}},
        {"prompt": "x", "completion": ["x"], "setup": {"states": {"tv": "on"}}},
        {"prompt": "x", "completion": ["x"], "setup": {"states": {"character": "ON"}}},
    ):
        with pytest.raises(TaskFileError):
            env.reset(options={"task": bad})


def test_what_is_carried_and_worn_moves_along() -> None:
    house = Household(0)
    run(
        house,
        "Agent.WalkTo(kitchen)\nAgent.Find(cutting_board)\nAgent.Grab(cutting_board)\n"
        "Agent.Find(cutlery_knife)\nAgent.Grab(cutlery_knife)\n"
        "Agent.Put(cutlery_knife, cutting_board)\nAgent.WalkTo(bedroom)",
    )
    assert holds(house, ["relation", "cutlery_knife", "INSIDE", "bedroom"])
    run(house, "Agent.Drop(cutting_board)\nAgent.WalkTo(cutlery_knife)")
    assert house.name(house.room) == "bedroom"


def test_impossible_states_are_refused() -> None:
    house = Household(0)
    run(
        house,
        "Agent.WalkTo(kitchen)\nAgent.Find(cutting_board)\nAgent.Grab(cutting_board)\n"
        "Agent.Find(bowl)\nAgent.Grab(bowl)\nAgent.Put(bowl, cutting_board)",
    )
    with pytest.raises(ActionFailed, match="which is on or in it"):
        execute(house, from_call("Agent.Put(cutting_board, bowl)"))
    for program, words in (
        ("Agent.WalkTo(chair)\nAgent.SitOn(chair)\nAgent.Grab(chair)", "stand up first"),
        ("Agent.WalkTo(chair)\nAgent.Grab(chair)\nAgent.SitOn(chair)", "put it down first"),
        ("Agent.WalkTo(cup)\nAgent.Grab(cup)\nAgent.Put(cup, kitchen)", "or drop it"),
        ("Agent.WalkTo(character)", "the character is the one acting"),
    ):
        assert words in failure(Household(0), program).message, program
    long = failure(Household(0), f"Agent.WalkTo({'x' * 5000})")
    assert len(long.message) < 200


def test_a_copied_graph_and_its_original_change_apart() -> None:
    import random

    original = household(0, 1).graph
    before = original.to_data()
    rng = random.Random(7)
    copies = [original.copy()]
    copies.append(copies[0].copy())  # a copy of a copy shares with both
    ids = sorted(original.nodes)
    edges = original.edges()
    for graph in copies:
        for _ in range(60):
            a, relation, b = rng.choice(edges)
            choice = rng.random()
            if choice < 0.3:
                graph.remove_edge(a, relation, b)
            elif choice < 0.5:
                graph.remove_from(a, ("CLOSE", "ON"))
            elif choice < 0.7:
                graph.remove_to(b, ("INSIDE", "CLOSE"))
            else:
                graph.add_edge(
                    rng.choice(ids), rng.choice(("CLOSE", "ON", "FACING")), rng.choice(ids)
                )
    assert original.to_data() == before
    assert copies[0].edges() != copies[1].edges() != edges
    for graph in copies:  # both indexes agree: every edge out is the same edge in
        assert (
            sorted(
                (a, r, b) for b in graph.nodes for r in graph._in[b] for a in graph.sources(b, r)
            )
            == graph.edges()
        )
    original.add_edge(CHARACTER, "CLOSE", ids[-1])  # the original changes alone too
    assert original.has(CHARACTER, "CLOSE", ids[-1])
    assert copies[0].to_data() != original.to_data()
    third = copies[1].copy()
    assert third.to_data() == copies[1].to_data()
