"""Chat spellings (``whats ur budget``, ``pls``, ``kitties``), read as written out."""

from __future__ import annotations

from toolgym.simulators.user.first_chars import compiled

__all__ = ["expand_chat"]

_CHAT = {
    "whats": "what is", "wats": "what is", "wat": "what", "hows": "how is", "ur": "your", "u": "you",
    "wanna": "want to", "gonna": "going to", "pls": "please", "plz": "please", "youre": "you are",
    "dont": "do not", "thx": "thanks", "lvl": "level", "qty": "quantity", "amt": "amount",
    "yr": "year", "yrs": "years", "ppl": "people", "bdrm": "bedroom", "bdrms": "bedrooms",
    "thru": "through", "pref": "preference", "prefs": "preferences", "r u": "are you",
    "r you": "are you", "wht": "what", "wich": "which", "r we": "are we", "whr": "where", "whn": "when",
    "wheres": "where is", "whos": "who is", "whens": "when is", "hw": "how", "hw many": "how many",
    "wher": "where", "youd": "you would", "youll": "you will", "youve": "you have",
    "br": "bedrooms", "brs": "bedrooms", "btw": "by the way", "cud": "could", "cld": "could",
    "shud": "should", "wud": "would", "wld": "would", "cn u": "can you", "cn you": "can you",
    "kitties": "cats", "kitty": "cat", "approx": "approximately",
}  # fmt: skip
_CHAT_WORD = compiled(r"(?<![0-9a-z'$])(" + "|".join(_CHAT) + r")(?![0-9a-z'])")
"""Chat spellings (``whats ur budget``), read as written out."""


def expand_chat(text: str) -> str:
    """Normalized ``text`` with its chat spellings written out (``whats ur`` -> ``what is your``)."""
    return _CHAT_WORD.sub(lambda m: _CHAT[m.group(1)], text)
