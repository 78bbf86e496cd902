"""World state and rules of each tool: pure Python, seeded, no Gymnasium and no prompts."""

from toolgym.simulators.listings import HomeQuery, Listing, ListingDatabase, get_listing_database
from toolgym.simulators.travel import (
    HotelOffer,
    HotelQuery,
    TicketOffer,
    TicketQuery,
    TravelInventory,
    get_travel_inventory,
)

__all__ = [
    "HomeQuery",
    "HotelOffer",
    "HotelQuery",
    "Listing",
    "ListingDatabase",
    "TicketOffer",
    "TicketQuery",
    "TravelInventory",
    "get_listing_database",
    "get_travel_inventory",
]
