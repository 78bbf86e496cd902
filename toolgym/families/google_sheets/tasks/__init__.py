"""The Google Sheets tasks: a table, a goal that needs reasoning about it, and gold gspread programs.

A task record is the original's (``prompt``, ``completion``, ``question_sheet_name``,
``check_format``) plus ``setup: {"table": [[header...], [row...], ...]}``, the table the program
starts from, and the meta keys ``operation`` and ``check_layout``. The prompt is the goal, a blank
line, then the table as ``| a | b |`` rows, as the original's demonstrations show it::

    Increase beef's price by 10%.

    | Product | Cost | Price |
    | beef | 1 | 3 |

A record without a ``setup`` (an original file) gets its table from the ``| ... |`` rows of its
prompt, or starts from an empty sheet.

Splits:

* ``test`` (70 tasks) and ``demo`` (10 tasks): the operations of
  :data:`~.operations.OPERATIONS` in turn, over the five kinds of table, fixed by seed;
* ``train``: unlimited, the same mix, never a test or demo goal.
"""

from toolgym.lazy import lazy_package

# The suite and its helpers load on first use: the family's declaration imports this package's
# light modules (its metrics) without them.
__getattr__, __dir__ = lazy_package(__name__, "suite")
