"""``import toolgym`` registers every env without importing any family's dependencies."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "pandas",
    "gspread",
    "google.auth",
    "requests",
    "pybullet",
    "shapely",
    "bm25s",
    "rapidfuzz",
    "faker",
    "pydantic",
    "torch",
    "transformers",
    "matplotlib",
    "uvicorn",
    "RestrictedPython",
)
"""Dependencies of families, models or commands: none is needed to register the envs."""


def test_import_toolgym_loads_no_family_dependency() -> None:
    code = (
        "import json, sys, toolgym, gymnasium as gym; "
        "ids = [i for i in gym.registry if i.startswith('toolbench/')]; "
        "print(json.dumps({'ids': len(ids), 'modules': sorted(sys.modules)}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    found = json.loads(done.stdout)
    assert found["ids"] >= 13
    loaded = [m for m in HEAVY if m in found["modules"]]
    assert not loaded, f"import toolgym loaded {loaded}; expected none of {HEAVY}"


def test_a_light_module_of_a_lazy_package_imports_first_and_alone() -> None:
    # ``from package import submodule`` inside a family's tasks must not load the heavy suite
    # (which may be importing that very submodule: a circular import)
    code = (
        "import sys; import toolgym.families.virtual_home.tasks.activities; "
        "import toolgym.families.seal_tools.tasks.generation; "
        "print('toolgym.families.seal_tools.tasks.suite' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
