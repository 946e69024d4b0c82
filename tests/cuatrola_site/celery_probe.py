"""A task for the broker-restart test: a worker started with `--include` runs it."""

from pathlib import Path

from celery import shared_task


@shared_task(name="tests.probe_touch")
def probe_touch(path: str, text: str) -> None:
    with Path(path).open("a") as out:
        out.write(text + "\n")
