import datetime as dt
import pickle

from toolgym.families.home_search.world import HomeQuery, ListingDatabase, get_listing_database
from toolgym.families.trip_booking.world import HotelQuery, TicketQuery, get_travel_inventory
from toolgym.simulators.places import CITIES


def test_listing_database_size_and_content() -> None:
    db = get_listing_database()
    assert len(db) >= 5000
    assert len({x.city for x in db}) == len(CITIES) >= 50
    modes = {x.buy_or_rent for x in db}
    assert modes == {"buy", "rent"}
    types = {(x.buy_or_rent, x.home_type) for x in db}
    assert ("rent", "Apartment") in types and ("buy", "Co-op") in types
    assert len({x.listing_id for x in db}) == len(db)
    assert all(x.price > 0 and x.square_feet > 0 for x in db)


def test_listing_database_is_deterministic_and_seeded() -> None:
    a, b = ListingDatabase(0, 8), ListingDatabase(0, 8)
    assert list(a) == list(b)
    assert list(ListingDatabase(1, 8)) != list(a)


def test_search_semantics() -> None:
    db = get_listing_database()
    everything = db.group("Denver", "rent")
    q = HomeQuery(
        city=" denver ", buy_or_rent="rent", beds=2, baths=1.5, max_commute=40, floor=None
    )
    hits = db.search(q)
    expected = [x for x in everything if x.beds >= 2 and x.baths >= 1.5 and x.commute_minutes <= 40]
    assert sorted(x.listing_id for x in hits) == sorted(x.listing_id for x in expected)
    floor = db.search(HomeQuery(city="Denver", buy_or_rent="rent", floor=1))
    assert floor and all(x.floor == 1 for x in floor)
    typed = db.search(
        HomeQuery(city="Denver", buy_or_rent="rent", home_types=frozenset({"apartment"}))
    )
    assert typed and all(x.home_type == "Apartment" for x in typed)


def test_database_pickles_by_reference() -> None:
    db = get_listing_database()
    data = pickle.dumps(db)
    assert len(data) < 200
    assert pickle.loads(data) is db


def test_travel_inventory_is_a_pure_function() -> None:
    inv = get_travel_inventory()
    day = dt.date(2026, 6, 5)
    a = inv.tickets("Boston", "Denver", day, "train")
    assert a == inv.tickets("boston", " Denver", day, "train")
    assert a and all(o.mode == "train" and o.date == day for o in a)
    assert inv.tickets("Boston", "Boston", day, "train") == []
    assert inv.tickets("Smallville", "Gotham", day, "bus"), "any city has offers"
    q = TicketQuery("Boston", "Denver", "train", day, travellers=3, max_price=10_000)
    assert all(o.seats_left >= 3 for o in inv.search_tickets(q))
    rooms = inv.search_hotels(
        HotelQuery("Denver", day, day + dt.timedelta(days=2), rooms=2, room_type="king bed")
    )
    assert all(o.room_type == "King Bed" and o.rooms_left >= 2 for o in rooms)
    assert pickle.loads(pickle.dumps(inv)) is inv
