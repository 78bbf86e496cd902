"""The simulated Google Sheets service (in progress).

So far: A1 notation (:mod:`.a1`) and formulas (:mod:`.formulas`).
"""
