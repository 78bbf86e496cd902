"""How long one client waits behind another's large read: ``python scripts/bench_sheets_read.py``.

``toolgym serve google_sheets`` answers requests one at a time (the service is one shared state,
and its reads are not safe to run side by side: formula evaluation keeps a cache and a cycle
guard). A large read therefore delays every other client by its own length. This script serves
the simulated Sheets service on a free port, fills a 1000 x 26 sheet (a third of it formulas),
and prints:

* the time of one ``spreadsheets.get`` with ``includeGridData=true`` (the largest read: every
  cell's values and formats, about 14 MB of JSON), alone;
* the time of a small read (``values.get`` of ``A1:B2``) alone, and while another client reads
  the whole grid over and over: the median and the worst of ``--probes`` small reads.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time
from typing import Any

from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.tools.http_server import make_server


def _request(port: int, method: str, path: str, body: Any = None) -> tuple[float, int]:
    """Seconds taken and the status of one request on a new connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if data else {}
    start = time.perf_counter()
    connection.request(method, "/v4/spreadsheets/" + path, body=data, headers=headers)
    reply = connection.getresponse()
    reply.read()
    elapsed = time.perf_counter() - start
    connection.close()
    return elapsed, reply.status


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probes", type=int, default=30, help="small reads timed (30)")
    parser.add_argument("--rounds", type=int, default=3, help="full-grid reads timed alone (3)")
    args = parser.parse_args()

    app = SheetsApp()
    book_id = app.create("bench").spreadsheet_id
    server = make_server(app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_port
    rows = [[f"=ROW()*{c}+{r}" if c % 3 == 0 else r * c for c in range(26)] for r in range(1000)]
    _, status = _request(
        port,
        "PUT",
        f"{book_id}/values/Sheet1!A1:Z1000?valueInputOption=USER_ENTERED",
        {"values": rows},
    )
    assert status == 200, status
    grid = f"{book_id}?includeGridData=true"
    small = f"{book_id}/values/Sheet1!A1:B2"
    _request(port, "GET", grid)  # formulas evaluated once, as a warm service has them
    alone_grid = [_request(port, "GET", grid)[0] for _ in range(args.rounds)]
    alone_small = [_request(port, "GET", small)[0] for _ in range(args.probes)]

    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            _request(port, "GET", grid)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    time.sleep(0.2)
    behind = []
    for _ in range(args.probes):
        behind.append(_request(port, "GET", small)[0])
        time.sleep(0.05)
    stop.set()
    thread.join()
    server.shutdown()

    ms = lambda xs: f"median {1000 * statistics.median(xs):.1f} ms, worst {1000 * max(xs):.1f} ms"  # noqa: E731
    print(f"full-grid read alone ({args.rounds}): {ms(alone_grid)}")
    print(f"small read alone ({args.probes}): {ms(alone_small)}")
    print(f"small read behind full-grid reads ({args.probes}): {ms(behind)}")


if __name__ == "__main__":
    main()
