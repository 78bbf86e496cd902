"""The Berkeley Function Calling Leaderboard (BFCL v4), read from the installed ``bfcl-eval``.

* :mod:`.data`: BFCL's questions and possible answers, read from the package's files;
* :mod:`.checker`: BFCL's verdict on a single-turn answer (its AST check, relevance and
  irrelevance), written here and tested against BFCL's own checker;
* :mod:`.decoding`: an answer read as BFCL reads a prompt-mode model's Python calls, without
  evaluating anything, and calls written that way;
* :mod:`.multi_turn`: the multi-turn categories' backends (BFCL's classes) driven by parsed calls,
  and BFCL's state and response checks turn by turn;
* :mod:`.leaderboard`: a run's row of the leaderboard (Overall Acc and its parts), summed as BFCL
  sums it.
"""
