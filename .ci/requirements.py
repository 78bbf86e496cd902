"""Print setup.cfg's requirements (core and the named extras), one per line, minus some names.

Used by .ci/run for the Python 3.12 stage: ``python .ci/requirements.py test --without pybullet``.
"""

import argparse
import configparser
import re
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("extras", nargs="*")
parser.add_argument("--without", action="append", default=[])
args = parser.parse_args()
config = configparser.ConfigParser()
config.read(Path(__file__).resolve().parent.parent / "setup.cfg")
lines = config["options"]["install_requires"].splitlines()
for extra in args.extras:
    lines += config["options.extras_require"][extra].splitlines()
seen = set()
for line in lines:
    line = line.split("#")[0].strip()
    name = re.split(r"[<>=!~\[ ;]", line, maxsplit=1)[0].lower()
    if line and not line.startswith("%") and name not in args.without and line not in seen:
        seen.add(line)
        print(line)
