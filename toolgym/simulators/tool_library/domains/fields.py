"""Default template leaves of field names, for field lists that leave a name untyped.

The response synthesizer infers values from key names, so categories reuse these names where
natural (``price``, ``rating``, ``latitude``, ``review_count``, ``available``, ...).
"""

from __future__ import annotations


def words(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text``."""
    return tuple(text.split())


FIELD_TYPES: dict[str, str] = {
    **dict.fromkeys(
        words(
            "price amount rating latitude longitude lat lon score confidence rate result balance "
            "change change_percent open high low close market_cap temperature feels_like humidity "
            "wind_speed distance_km duration_hours weight_kg height_cm calories protein fat carbs "
            "value percentage accuracy probability sentiment_score total_price fee budget salary "
            "elevation magnitude volume_24h discount cost ctr spend revenue bmi dose_mg "
            "uptime_percent load_percent cpu_percent memory_percent size_mb progress usage_kwh "
            "tax_rate interest_rate yield_percent odds multiplier reward_value unit_price"
        ),
        "float",
    ),
    **dict.fromkeys(
        words(
            "stars review_count count total year population capacity quantity stock duration_minutes "
            "stops followers following likes comments views age goals points wins losses rank "
            "page_count pages episodes seasons runtime_minutes track_count duration_seconds "
            "players_count max_guests servings prep_time_minutes cook_time_minutes steps_count "
            "members_count attendees tickets_available bedrooms bathrooms word_count char_count "
            "response_time_ms status_code port points_balance impressions clicks conversions "
            "enrolled_count credits level size_bytes file_count row_count width height "
            "battery_level open_positions employees"
        ),
        "int",
    ),
    **dict.fromkeys(
        words(
            "available verified in_stock is_open active is_public is_verified free live "
            "is_remote valid is_safe refundable online is_live explicit is_disposable "
            "is_encrypted deliverable"
        ),
        "bool",
    ),
}
"""Default template leaves of field names (a field list may still type a name inline)."""
