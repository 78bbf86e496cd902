"""The simulated Google Sheets service (in progress): A1 notation first (:mod:`.a1`)."""
