"""Offline practice in Chromium: load times, bytes downloaded, bots' time per move.

Serves the site as in production (collectstatic with the compressed manifest
storage, daphne, DEBUG=0) on a scratch SQLite database, then drives Debian's
Chromium as a player would:

- cold: a new browser profile opens /play/offline/ (the service worker installs
  and caches in the background while the page's worker downloads Pyodide);
  time from navigation to the engine ready and to a dealt hand, and the bytes
  that came over the network;
- warm: the same profile opens the page again (everything from the service
  worker's cache; compiled WebAssembly from Chromium's code cache);
- bots: whole matches per level, the player clicking its first playable button
  each turn; each bot move's thinking time inside the worker (Python's
  perf_counter around `choose_action`) and its round trip as the page sees it
  (message to the worker → frame back), p50/p95/max.

    .venv/bin/python bench/offline_bench.py [--matches 2] [--levels easy,medium,hard] [--port 9191]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def serve(port: int, workdir: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "HTTPS": "0",
        "STATIC_MANIFEST": "1",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    for command in (["collectstatic", "--noinput", "--verbosity", "0"], ["migrate", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    daphne = Path(sys.executable).with_name("daphne")
    server = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "cuatrola_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            with urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def open_until_dealt(page, url: str) -> dict:
    """Opens the page (autostart), waits for a dealt hand; the page's own timings."""
    started = time.perf_counter()
    page.goto(url + "/play/offline/?autostart&pace=0")
    page.locator("#offline-root:is([data-state=playing], [data-state=failed])").wait_for(
        timeout=300_000
    )
    wall = time.perf_counter() - started
    stats = page.evaluate("window.CuatrolaOffline")
    if page.get_attribute("#offline-root", "data-state") != "playing":
        raise SystemExit("the engine failed: " + page.text_content("#offline-error"))
    return {"wall_s": wall, **stats}


def play_match(page, url: str, level: str, rules: str) -> dict:
    page.goto(url + "/play/offline/?pace=0")
    page.locator("#offline-root[data-state=ready]").wait_for(timeout=300_000)
    page.get_by_role("combobox", name="Rules").select_option(rules)
    page.get_by_role("combobox", name="Bot level").select_option(level)
    page.locator("#offline-start").click()
    over = page.locator("#offline-root[data-state=over]")
    # The live table's controls (table-view.js): a bid offered, or a card the rules allow.
    playable = page.locator("#offline-table :is(.tv-bids button, .tv-hand-card--playable)")
    either = page.locator(
        "#offline-root[data-state=over], "
        "#offline-table :is(.tv-bids button, .tv-hand-card--playable)"
    )
    while True:
        either.first.wait_for(timeout=300_000)
        if over.count():
            break
        try:
            playable.first.click(timeout=2_000)
        except Exception:  # redrawn under the pointer: look again
            continue
    return page.evaluate("window.CuatrolaOffline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=9191)
    parser.add_argument("--matches", type=int, default=2, help="matches per level")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--rules", default="online", choices=["online", "classic"])
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} CPUs; {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(args.port, Path(tmp))
        url = f"http://127.0.0.1:{args.port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
                )
                context = browser.new_context(locale="en-GB")
                received = []
                context.on(
                    "requestfinished",
                    lambda request: received.append(request.sizes()["responseBodySize"]),
                )
                # Completed tricks leave the centre at once: bots' timings, not the pace.
                context.add_init_script("window.cuatrolaTrickHoldMs = 0;")
                page = context.new_page()
                cold = open_until_dealt(page, url)
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                cold_bytes = sum(received)
                received.clear()
                print(
                    f"cold: dealt hand {cold['dealtAt'] / 1000:.2f} s after navigation "
                    f"(engine ready {cold['bootMs'] / 1000:.2f} s after the script ran; "
                    f"stages {cold['stages']}); wall {cold['wall_s']:.2f} s; "
                    f"{cold_bytes / 1048576:.1f} MB over the network "
                    f"(page + service worker's cache fill); {load()}"
                )
                warm_runs = []
                for _ in range(3):
                    received.clear()
                    warm_runs.append(open_until_dealt(page, url))
                warm_dealt = [run["dealtAt"] / 1000 for run in warm_runs]
                print(
                    f"warm: dealt hand {statistics.median(warm_dealt):.2f} s after navigation "
                    f"(median of 3: {', '.join(f'{x:.2f}' for x in warm_dealt)}); "
                    f"{sum(received) / 1024:.0f} KB over the network on the last; {load()}"
                )
                for level in args.levels.split(","):
                    think: list[float] = []
                    trip: list[float] = []
                    for _ in range(args.matches):
                        stats = play_match(page, url, level, args.rules)
                        think += stats["botMs"]
                        trip += stats["botRoundTripMs"]
                    p50, p95 = percentile(think, 0.5), percentile(think, 0.95)
                    print(
                        f"{level:6} ({args.rules}, {args.matches} matches, "
                        f"{len(think)} bot moves): think p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
                        f"max {max(think):.1f} ms; round trip p50 {percentile(trip, 0.5):.1f} ms, "
                        f"p95 {percentile(trip, 0.95):.1f} ms; {load()}"
                    )
                browser.close()
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
