"""Trip Booking: search tickets, hotel rooms or both through ``API``, ``Loc`` and ``Date`` calls.

## Description

The SambaNova ToolBench *Trip Booking* task as a Gymnasium environment. The user asks for
trip tickets, hotel rooms or both; the agent writes a program of ``API`` calls with ``Loc`` and
``Date`` values that sets the booking criteria and ends with ``API.search()``. The search
returns ticket offers (flight, train, bus, cruise) and hotel room offers from a deterministic
inventory that covers every city a user can name.

## Tools

The original's 20 functions: 18 on ``API`` (``select_booking_type`` first,
``select_transportation``, ``set_origin``/``set_destination``/``set_hotel_location`` taking a
``Loc``, ``set_departure_date``/``set_return_date``/``set_checkin_date``/``set_checkout_date``
taking a ``Date``, ticket and room price bounds, numbers of adults, children and rooms,
``select_room_type`` and ``search``) plus ``Loc(location)`` and ``Date(month, day, year)``.
``search()`` fills the original defaults and checks the required fields of the booking type.

## Action Space

A string (``TextSpace``, up to 16,384 characters). In ``program`` mode, a whole program
(calls and assignments such as ``d = Date(4, 10, 2026)``), run by a safe interpreter. In
``call`` mode, one statement per step, as code or a JSON call (``Loc`` as a city string,
``Date`` as ``{"month", "day", "year"}`` or ``"YYYY-MM-DD"``).

## Observation Space

A string: the user's goal after ``reset``; after a step, the offers found (or what a call
did), or ``Error (<category>): <message>``.

## Rewards

The F1 of the ``search_criteria`` dict against the best gold program's (the original metric),
when the episode ends; ``reward_type="success"`` gives 1 only for F1 == 1. ``info["metrics"]``
and ``info["error"]`` as in Home Search.

## Starting State

Empty criteria; the task is ``options["task_id"]``, ``options["task"]`` or drawn with the env's
seeded generator.

## Episode End

Terminated after the one step in ``program`` mode, and at ``API.search()`` in ``call`` mode.
Truncated after ``max_episode_steps`` (48, set in the registry).

## Arguments

``split`` (``"test"``: 120 tasks, ``"demo"``: 11 demonstrations, ``"train"``: unlimited),
``action_mode``, ``task_file``, ``extraction``, ``reward_type``, ``max_results`` (offers shown per
list, default 5), ``world_seed`` (seed of the inventory: the
``test`` and ``demo`` splits belong to world 0, ``train`` tasks are built for any world), ``render_mode``.

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec

SPEC = FamilySpec(
    name="trip_booking",
    title="Trip Booking",
    env_name="TripBooking",
    toolkit="toolgym.families.trip_booking.toolkit:TripBookingToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=48,
            tasks="toolgym.families.trip_booking.tasks:SUITE",
            history="initial release: the original API and scoring",
        ),
    ),
    prompting="toolgym.families.trip_booking.profile:PROMPTING",
    profile="toolgym.families.trip_booking.profile:PROFILE",
    doc=__doc__ or "",
)
"""The Trip Booking family (its prompting defaults are the original's ``top_k_api`` and
``max_output_token`` command-line settings)."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.trip_booking.chat:TripBookingChatToolkit",
    tasks="toolgym.families.trip_booking.chat:SUITE",
    options=("extraction", "max_results"),
)
"""``toolbench/TripBookingChat-v0``: the user holds back some booking criteria (see ``chat.py``)."""
