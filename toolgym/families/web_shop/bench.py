"""The web shop's own performance measures, printed by ``toolgym bench``.

Search latency at 1,000 and 100,000 products, a click step, the catalog and index build for
100,000 products (into an empty cache folder, then from it, each in a fresh process) and the
resident memory of a 100,000-product shop.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

QUERIES = (
    "herbal tea organic",
    "running shoes non slip black",
    "wireless earbuds noise cancelling",
    "office chair lumbar support",
    "dark chocolate sugar free",
    "blackout curtains thermal insulated",
    "usb flash drive high speed",
    "face moisturizer for sensitive skin",
)

_BUILD = """
import json, resource, sys, time
from toolgym.families.web_shop.toolkit import shop_for
t = time.perf_counter()
shop = shop_for(0, int(sys.argv[1]))
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _build(n: int, cache: str) -> dict[str, float]:
    env = {**os.environ, "TOOLGYM_CACHE": cache}
    out = subprocess.run(
        [sys.executable, "-c", _BUILD, str(n)], env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def search_ms(n: int, repeat: int = 400) -> float:
    """Median milliseconds of one search over ``n`` products."""
    from toolgym.families.web_shop.toolkit import shop_for

    shop = shop_for(0, n)
    samples = []
    for k in range(repeat):
        words = QUERIES[k % len(QUERIES)].split()
        t = time.perf_counter()
        shop.search(words)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e3


def click_ms(repeat: int = 2000) -> float:
    """Median milliseconds of a click step (an item's sub-page and back).

    It is timed as an env's step runs it: the action language on the episode's backend.
    """
    from toolgym.families.web_shop.toolkit import WebShopToolkit, goals_for

    toolkit = WebShopToolkit()
    backend = toolkit.new_backend()
    language = toolkit.language()
    goal = goals_for(0, toolkit.num_products)[0]
    backend.reset(None, {"goal": goal.to_data()})
    clickables = language.run_call("search[herbal tea]", backend).info["available_actions"]
    language.run_call(f"click[{clickables['clickables'][2]}]", backend)
    language.run_call("click[description]", backend)
    samples = []
    for _ in range(repeat // 2):
        for action in ("click[< prev]", "click[description]"):
            t = time.perf_counter()
            language.run_call(action, backend)
            samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e3


def report() -> list[str]:
    """The lines ``toolgym bench`` prints for the web shop."""
    with tempfile.TemporaryDirectory() as cache:
        first = _build(100_000, cache)
        again = _build(100_000, cache)
        before = os.environ.get("TOOLGYM_CACHE")
        os.environ["TOOLGYM_CACHE"] = cache
        try:
            large = search_ms(100_000)
        finally:
            from toolgym.families.web_shop.toolkit import shop_for

            shop_for.cache_clear()
            if before is None:
                del os.environ["TOOLGYM_CACHE"]
            else:
                os.environ["TOOLGYM_CACHE"] = before
    small = search_ms(1000)
    return [
        f"WebShop search: {small:.2f} ms at 1,000 products, {large:.2f} ms at 100,000 (medians)",
        f"WebShop click step (language and backend): {click_ms():.3f} ms (median)",
        f"WebShop 100,000 products, fresh process: catalog and index built in "
        f"{first['seconds']:.1f} s ({first['rss_mb']:.0f} MB resident), loaded from the cache "
        f"in {again['seconds']:.1f} s ({again['rss_mb']:.0f} MB resident)",
    ]
