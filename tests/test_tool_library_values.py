"""Coherent values from key names: kinds, realistic values, argument samples, the random source."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

import pytest

from toolgym.simulators.tool_library.key_kinds import VALUE_KINDS, leaf_base, split_key
from toolgym.simulators.tool_library.model import ParamDoc
from toolgym.simulators.tool_library.value_makers import MAKERS
from toolgym.simulators.tool_library.value_sources import Draw, Scope, mix, seed_int
from toolgym.simulators.tool_library.values import (
    make_value,
    normalize_key,
    sample_argument,
    value_kind,
)

KINDS = {
    "id": "id",
    "hotel_id": "id",
    "imdbID": "id",
    "uuid": "uuid",
    "first_name": "first_name",
    "lastName": "last_name",
    "author": "person",
    "artist_name": "person",
    "username": "username",
    "company": "company",
    "brand": "company",
    "city": "city",
    "country": "country",
    "country_code": "country_code",
    "address": "address",
    "zip": "zip",
    "postal_code": "zip",
    "lat": "latitude",
    "longitude": "longitude",
    "email": "email",
    "phone_number": "phone",
    "website": "url",
    "imageURL": "image",
    "thumbnail": "image",
    "date": "date",
    "checkInDate": "date",
    "created_at": "datetime",
    "timestamp": "datetime",
    "time": "time",
    "year": "year",
    "price": "price",
    "total_price": "price",
    "amount": "price",
    "salary": "salary",
    "currency": "currency",
    "percentage": "percentage",
    "interest_rate": "percentage",
    "price_change": "change",
    "rating": "rating",
    "score": "rating",
    "count": "count",
    "num_reviews": "count",
    "totalCount": "count",
    "population": "population",
    "followers": "audience",
    "temperature": "temperature",
    "feels_like": "temperature",
    "humidity": "humidity",
    "status": "status",
    "language": "language",
    "title": "title",
    "headline": "title",
    "description": "description",
    "summary": "description",
    "text": "description",
    "symbol": "symbol",
    "ticker": "symbol",
    "color": "color",
    "is_open": "boolean",
    "venue_name": "name",
    "slug": "slug",
    "message": "message",
    "foo": "word",
}


@pytest.mark.parametrize(("key", "kind"), KINDS.items())
def test_kinds_from_key_names(key: str, kind: str) -> None:
    assert value_kind(key, "str") == kind
    assert kind in VALUE_KINDS


def test_kinds_follow_leaf_types_and_context() -> None:
    assert value_kind("name", "int") == "number" and value_kind("price", "int") == "price"
    assert value_kind("status", "int") == "status_code" and value_kind("time", "int") == "datetime"
    assert value_kind("anything", "bool") == "boolean"
    assert value_kind("email", "NoneType") == "null" and value_kind("x", "str or null") == "word"
    assert value_kind("posters", "list") == "image"
    assert value_kind("name", "str", "artists") == "person"
    assert value_kind("name", "str", "brand") == "company"
    assert value_kind("name", "str", "hotel") == "name"
    assert [leaf_base(t) for t in ("str", "int", "float", "bool", "NoneType", "list", "dict")] == [
        "str",
        "int",
        "float",
        "bool",
        "null",
        "list",
        "dict",
    ]
    assert leaf_base("str or null") == "str" and leaf_base("list of str with length 3") == "list"
    assert leaf_base("Lisbon") == "str" and leaf_base(None) == "null" and leaf_base(1.5) == "float"
    assert split_key("topTrackUri") == ("top", "track", "uri")
    assert normalize_key("hotelId") == normalize_key("hotel_id") == "hotel_id"


def test_every_kind_makes_a_value_of_its_leaf_type() -> None:
    for kind in (*VALUE_KINDS, "no such kind"):
        for leaf, expected in (("str", str), ("int", int), ("float", float), ("bool", bool)):
            value = make_value(kind, leaf, Draw.of(kind, leaf))
            assert isinstance(value, expected), (kind, leaf, value)
        assert make_value(kind, "NoneType", Draw.of(kind)) is None
        assert make_value(kind, "dict", Draw.of(kind)) == {}
        listed = make_value(kind, "list", Draw.of(kind))
        assert 1 <= len(listed) <= 3 and all(isinstance(v, str) for v in listed)
    assert set(MAKERS) >= set(VALUE_KINDS) - {"null"}


def draws(kind: str, leaf: str = "str", n: int = 40, hint: str = "") -> list[Any]:
    return [make_value(kind, leaf, Draw.of("values", kind, i), hint) for i in range(n)]


def test_values_look_real() -> None:
    for day in draws("date"):
        assert dt.date(2024, 1, 1) <= dt.date.fromisoformat(day) <= dt.date(2026, 12, 31)
    assert all(re.fullmatch(r"2\d{3}-\d\d-\d\dT\d\d:\d\d:\d\dZ", v) for v in draws("datetime"))
    assert all(re.fullmatch(r"\d\d:\d\d", v) for v in draws("time"))
    assert all(re.fullmatch(r"\d+\.\d\d", v) for v in draws("price"))
    assert all(round(v, 2) == v and 5 <= v < 1000 for v in draws("price", "float"))
    assert all(re.fullmatch(r"htl_[0-9a-f]{6}", v) for v in draws("id", hint="hotel"))
    assert all(re.fullmatch(r"[0-9a-f]{10}", v) for v in draws("id"))
    assert all(isinstance(v, int) and v >= 100_000 for v in draws("id", "int"))
    assert all(
        re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", v)
        for v in draws("uuid")
    )
    assert all(re.fullmatch(r"[^@\s]+\.[^@\s]+@[a-z]+\.[a-z]+", v) for v in draws("email"))
    assert all(v.startswith("https://") for v in draws("url") + draws("image"))
    assert all(re.fullmatch(r"[A-Z]{3}", v) for v in draws("currency"))
    assert all(-90 <= v <= 90 for v in draws("latitude", "float"))
    assert len(set(draws("city"))) > 20 and len(set(draws("person"))) > 30


def test_one_object_shares_a_place_and_a_person() -> None:
    for i in range(20):
        scope = Scope(seed_int(f"object {i}".encode()))
        place = scope.place()
        city = make_value("city", "str", Draw.of(i, "a"), scope=scope)
        country = make_value("country", "str", Draw.of(i, "b"), scope=scope)
        lat = make_value("latitude", "float", Draw.of(i, "c"), scope=scope)
        assert (city, country) == (place.city, place.country) and abs(lat - place.lat) < 0.02
        first = make_value("first_name", "str", Draw.of(i, "d"), scope=scope)
        email = make_value("email", "str", Draw.of(i, "e"), scope=scope)
        assert email.startswith(first.lower() + ".")
    pinned = Scope(1)
    pinned.pin("city", "Lisbon")
    assert (pinned.place().city, pinned.place().country) == ("Lisbon", "Portugal")
    unknown, elsewhere = Scope(2), Scope(3)
    unknown.pin("city", "Springfield Falls")
    elsewhere.pin("city", "Springfield Falls")
    assert unknown.place().city == "Springfield Falls"
    assert unknown.place() == elsewhere.place()  # an unknown town is placed by its name
    by_country = Scope(4)
    by_country.pin("country_code", "JP")
    assert by_country.place().country_code == "JP"


def test_draw_is_uniform_and_stable() -> None:
    draw, again = Draw(b"seed"), Draw(b"seed")
    values = [draw(6) for _ in range(6000)]
    assert values == [again(6) for _ in range(6000)]
    counts = [values.count(k) for k in range(6)]
    assert all(850 < c < 1150 for c in counts)
    assert Draw(b"x")(1) == 0 and Draw(b"x")(0) == 0
    assert Draw.of("a", 1).bits() == Draw.of("a", 1).bits() != Draw.of("a", 2).bits()
    assert mix(5, 7) == mix(5, 7) != mix(5, 8) and 0 <= mix(2**64 - 1, 2**64 - 1) < 2**64
    digest = hashlib.blake2b(b"x", digest_size=8).digest()
    assert seed_int(b"x") == int.from_bytes(digest, "little")
    low = [mix(1, k) % 10 for k in range(5000)]
    assert all(400 < low.count(d) < 600 for d in range(10))


@pytest.mark.parametrize(
    ("param", "check"),
    [
        (ParamDoc("limit", "NUMBER"), lambda v: v in (5, 10, 20, 25, 50)),
        (ParamDoc("page", "INTEGER"), lambda v: v in (1, 2, 3)),
        (ParamDoc("price", "NUMBER"), lambda v: isinstance(v, float)),
        (ParamDoc("listing_id", "NUMBER", default="56354192"), lambda v: isinstance(v, int)),
        (
            ParamDoc("units", "ENUM", enum=("metric", "imperial")),
            lambda v: v in ("metric", "imperial"),
        ),
        (ParamDoc("flag", "BOOLEAN"), lambda v: isinstance(v, bool)),
        (ParamDoc("date", "DATE (YYYY-MM-DD)"), lambda v: re.fullmatch(r"202[4-6]-\d\d-\d\d", v)),
        (ParamDoc("at", "TIME (24-hour HH:MM)"), lambda v: re.fullmatch(r"\d\d:\d\d", v)),
        (ParamDoc("tags", "ARRAY"), lambda v: isinstance(v, list) and 1 <= len(v) <= 3),
        (ParamDoc("filters", "OBJECT", default='{"a": 1}'), lambda v: v == {"a": 1}),
        (ParamDoc("city", "STRING"), lambda v: isinstance(v, str) and v[:1].isalpha()),
        (ParamDoc("lang", "STRING", default="en"), lambda v: re.fullmatch(r"[a-z]{2}", v)),
        (ParamDoc("cc", "STRING", default="US"), lambda v: re.fullmatch(r"[A-Z]{2}", v)),
        (ParamDoc("symbols", "STRING", default="AAPL,MSFT"), lambda v: len(v.split(",")) == 2),
        (ParamDoc("slug", "string", default="lumineers-at-aware"), lambda v: "-" in v),
        (
            ParamDoc("since", "STRING", default="2023-05-01"),
            lambda v: re.fullmatch(r"\d{4}-\d\d-\d\d", v),
        ),
        (ParamDoc("zip", "STRING", default="94107"), lambda v: re.fullmatch(r"\d{5}", v)),
        (ParamDoc("email", "STRING", default="a@b.com"), lambda v: "@" in v),
        (ParamDoc("q", "STRING", default="taylor swift"), lambda v: isinstance(v, str) and v),
    ],
)
def test_sample_arguments(param: ParamDoc, check: Any) -> None:
    values = [sample_argument(param, ("task", i)) for i in range(12)]
    assert all(check(v) for v in values), values
    assert values == [sample_argument(param, ("task", i)) for i in range(12)]
    assert len({repr(v) for v in values}) > 1 or param.kind == "object"
