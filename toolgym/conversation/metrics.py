"""What a conversation env reports besides its family's metrics."""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

CONVERSATION_METRICS = (
    MetricSpec("turns", "messages to the user", percent=False),
    MetricSpec("questions", "questions asked", percent=False),
    MetricSpec("repeated_asks", "asked again", percent=False),
    MetricSpec("guessed_slots", "guessed slots", percent=False),
    MetricSpec("untold_slots", "slots never asked", percent=False),
    MetricSpec("refused_messages", "refused messages", percent=False),
)
"""The conversation's counts, in ``info["metrics"]`` of every conversation env's last step."""
