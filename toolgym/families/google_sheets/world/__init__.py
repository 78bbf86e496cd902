"""The simulated Google Sheets service (in progress).

So far: A1 notation (:mod:`.a1`), formulas (:mod:`.formulas`), the spreadsheet model with the
values API's semantics (:mod:`.sheet`, with :mod:`.number_format`), and the Sheets v4, Drive v3 and token endpoints gspread
uses, as one ``HttpApp`` (:mod:`.service`), with layout requests (:mod:`.structure`) and its state
as plain data (:mod:`.state`).
"""
