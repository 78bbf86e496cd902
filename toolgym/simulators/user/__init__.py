"""Simulated users: slots, the deterministic reader of agents' messages, the rule-based user."""

from toolgym.simulators.user.matcher import KINDS, Reading, read_message
from toolgym.simulators.user.rule_user import (
    PERSONAS,
    Conversation,
    RuleUser,
    UserSimulator,
    UserTurn,
    told,
)
from toolgym.simulators.user.slots import Slot, SlotKind, Vocabulary, normalize

__all__ = [
    "KINDS",
    "PERSONAS",
    "Conversation",
    "Reading",
    "RuleUser",
    "Slot",
    "SlotKind",
    "UserSimulator",
    "UserTurn",
    "Vocabulary",
    "normalize",
    "read_message",
    "told",
]
