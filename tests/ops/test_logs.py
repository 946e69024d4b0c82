"""Log lines: JSON objects with the request's ids, the request id carried into a
Celery task, and no secret in any line."""

from __future__ import annotations

import io
import json
import logging
import threading

import pytest
from celery import shared_task
from django.test import Client

from ops import context
from ops.logs import ContextFilter, JsonLines, RedactSecrets, redact

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
    """Every record of every logger, formatted as production formats it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactSecrets())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines() if line]
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def test_a_line_is_one_json_object_with_the_requests_ids(json_lines, player):
    client = Client()
    client.force_login(player)
    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="abcdef-123456")
    assert response.status_code == 404
    [line] = [line for line in json_lines() if line["message"].startswith("Not Found")]
    assert line["level"] == "WARNING"
    assert line["logger"] == "django.request"
    assert line["request_id"] == "abcdef-123456"
    assert "timestamp" in line
    assert {"user_id", "table_id", "match_id"} <= set(line)


def test_the_settings_choose_json_or_plain_text():
    from ops.logs import logging_config

    assert logging_config(json_lines=True, level="INFO")["formatters"]["site"] == {
        "()": "ops.logs.JsonLines"
    }
    plain = logging_config(json_lines=False, level="INFO")["formatters"]["site"]
    assert "%(request_id)s" in plain["format"]


SEEN_IN_TASK: list[dict] = []


@shared_task(name="tests.ops.log_something")
def log_something() -> None:
    """The line a log call in the task writes, formatted as production formats it
    (the embedded test worker installs its own handlers on the root logger)."""
    record = logging.getLogger("tests.ops").makeRecord(
        "tests.ops", logging.WARNING, __file__, 0, "inside the task", None, None
    )
    ContextFilter().filter(record)
    SEEN_IN_TASK.append(json.loads(JsonLines().format(record)))


def test_the_request_id_follows_the_request_into_its_task(settings):
    """Published with the id in the message's headers; the worker (a real Celery
    worker thread on the Redis broker when there is one, else eager) logs it."""
    from cuatrola_site.celery import app

    SEEN_IN_TASK.clear()
    context.request_id.set("request-into-task-1")
    try:
        if app.conf.task_always_eager:
            log_something.delay()
        else:
            from celery.contrib.testing.worker import start_worker

            with start_worker(app, pool="solo", perform_ping_check=False, queues=["ops-test"]):
                context.request_id.set("request-into-task-1")
                log_something.apply_async(queue="ops-test")
                for _ in range(400):
                    if SEEN_IN_TASK:
                        break
                    threading.Event().wait(0.05)
    finally:
        context.request_id.set(None)
    [line] = SEEN_IN_TASK
    assert line["message"] == "inside the task"
    assert line["request_id"] == "request-into-task-1"


def test_a_password_posted_to_the_log_in_form_never_reaches_a_log_line(
    json_lines, player, password
):
    client = Client()
    wrong = client.post("/accounts/login/", {"login": player.username, "password": password + "x"})
    right = client.post("/accounts/login/", {"login": player.username, "password": password})
    assert wrong.status_code == 200 and right.status_code == 302
    session_key = client.cookies["sessionid"].value
    text = "\n".join(json.dumps(line) for line in json_lines())
    assert password not in text
    assert session_key not in text


@pytest.mark.parametrize(
    "message",
    [
        "password=hunter2-secret-value",
        "{'password': 'hunter2-secret-value'}",
        "sessionid=hunter2-secret-value; other=1",
        "postgres://user:hunter2-secret-value@db/cuatrola",
        '"api_key": "hunter2-secret-value"',
    ],
)
def test_what_looks_like_a_secret_is_masked(json_lines, message):
    logging.getLogger("tests.ops").error("carrying %s", message)
    assert "hunter2-secret-value" not in redact(message)
    [line] = [line for line in json_lines() if line["logger"] == "tests.ops"]
    assert "hunter2-secret-value" not in json.dumps(line)
