"""The Berkeley Function Calling Leaderboard (BFCL v4), read from the installed ``bfcl-eval``.

* :mod:`.data`: BFCL's questions and possible answers, read from the package's files;
* :mod:`.checker`: BFCL's verdict on a single-turn answer (its AST check, relevance and
  irrelevance), written here and tested against BFCL's own checker.
"""
