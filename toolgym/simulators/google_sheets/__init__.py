"""The simulated Google Sheets service (in progress).

So far: A1 notation (:mod:`.a1`), formulas (:mod:`.formulas`) and the spreadsheet model with the
values API's semantics (:mod:`.sheet`).
"""
