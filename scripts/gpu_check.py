"""The GPU check (see :mod:`toolgym.cli.gpu_check`): ``python scripts/gpu_check.py``."""

import sys

from toolgym.cli.gpu_check import main

if __name__ == "__main__":
    sys.exit(main())
