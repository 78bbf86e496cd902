"""Tasks, splits, metrics (below the envs) and the evaluation runner and reports (above them).

Submodules are imported explicitly (``from toolgym.benchmarks.runner import evaluate``) so that
loading the task data does not pull in the runner and vice versa.
"""
