"""Generated multi-turn conversations over BFCL's social posting backend (``TwitterAPI``).

Each starts a logged-in account that follows a few users, with a few tweets already posted, and
asks two to four things, one user turn each: post a tweet (with a tag, or none), comment on a
tweet, retweet one, follow or unfollow someone, show a tweet, search tweets for a word, or list
who the user follows. Every request names what it acts on, so each turn has one right sequence
of calls; BFCL's verdict scores the conversation like any entry. Rebuilt from
``(k, world_seed)`` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl.turn_train import Turn, _call, draw_turns, generated_task

ACCOUNTS = ("maya_codes", "tomtravels", "quietgarden", "byte_chef", "urban_owl", "lenslife")
OTHERS = ("alice", "bob", "carlos", "dana", "eli", "fern", "gus", "hira")
POSTS = ("Just finished a 10k run", "New recipe: lemon orzo", "Sunset over the harbour",
         "Reading about compilers tonight", "Garden tomatoes are finally red",
         "Conference talk slides are up")  # fmt: skip
TAGS = ("#running", "#food", "#photo", "#tech", "#garden", "#travel")
REPLIES = ("Love this!", "Congrats!", "Great shot", "Thanks for sharing")


@dataclass
class _Account:
    rng: np.random.Generator
    me: str
    following: list[str]
    tweets: list[str]  # contents by id
    retweeted: set[int]

    def pick(self, items: Any) -> Any:
        return items[int(self.rng.integers(len(items)))]


def _post(a: _Account) -> Turn | None:
    content = a.pick(POSTS)
    a.tweets.append(content)
    if a.rng.random() < 0.5:
        tag = a.pick(TAGS)
        return f"Post '{content}' with the tag {tag}.", [
            _call("post_tweet", content=content, tags=[tag])
        ]
    return f"Post a tweet saying '{content}'.", [_call("post_tweet", content=content)]


def _comment(a: _Account) -> Turn | None:
    tweet, text = int(a.rng.integers(len(a.tweets))), a.pick(REPLIES)
    return f"Comment '{text}' on tweet {tweet}.", [
        _call("comment", tweet_id=tweet, comment_content=text)
    ]


def _retweet(a: _Account) -> Turn | None:
    left = [k for k in range(len(a.tweets)) if k not in a.retweeted]
    if not left:
        return None
    tweet = a.pick(left)
    a.retweeted.add(tweet)
    return f"Retweet tweet {tweet}.", [_call("retweet", tweet_id=tweet)]


def _follow(a: _Account) -> Turn | None:
    new = [u for u in OTHERS if u not in a.following]
    if not new:
        return None
    user = a.pick(new)
    a.following.append(user)
    return f"Follow {user}.", [_call("follow_user", username_to_follow=user)]


def _unfollow(a: _Account) -> Turn | None:
    if not a.following:
        return None
    user = a.pick(a.following)
    a.following.remove(user)
    return f"Stop following {user}.", [_call("unfollow_user", username_to_unfollow=user)]


def _show(a: _Account) -> Turn | None:
    tweet = int(a.rng.integers(len(a.tweets)))
    return f"Show me tweet {tweet}.", [_call("get_tweet", tweet_id=tweet)]


def _search(a: _Account) -> Turn | None:
    word = a.pick(a.pick(a.tweets).split())
    return f"Find the tweets that mention '{word}'.", [_call("search_tweets", keyword=word)]


def _following(a: _Account) -> Turn | None:
    return "Who am I following?", [_call("list_all_following")]


REQUESTS: tuple[Callable[[_Account], Turn | None], ...] = (
    _post, _post, _comment, _retweet, _follow, _unfollow, _show, _search, _following,
)  # fmt: skip
"""The kinds of request a turn makes (posting twice as often)."""


def posting_task(k: int, rng: np.random.Generator) -> Task:
    """The generated posting conversation ``train-{k}`` (see the module docstring)."""
    me = str(rng.choice(ACCOUNTS))
    following = [str(u) for u in rng.permutation(OTHERS)[: int(rng.integers(1, 4))]]
    authors = [str(rng.choice(OTHERS)) for _ in range(int(rng.integers(1, 4)))]
    account = _Account(rng, me, list(following), [], set())
    tweets = {}
    for i, author in enumerate(authors):
        content = account.pick(POSTS)
        account.tweets.append(content)
        tweets[str(i)] = {"id": i, "username": author, "content": content, "tags": [],
                          "mentions": []}  # fmt: skip
    config = {
        "username": me,
        "password": "secret",
        "authenticated": True,
        "tweets": tweets,
        "comments": {},
        "retweets": {},
        "following_list": list(following),
        "tweet_counter": len(tweets),
    }
    turns = draw_turns(rng, REQUESTS, account)
    opening = f"I am signed in as {me}. "
    return generated_task(k, {"TwitterAPI": config}, turns, opening)
