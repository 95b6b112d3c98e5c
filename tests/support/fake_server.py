"""A scripted fake model server for the provider tests (stdlib only).

:class:`FakeModelServer` listens on ``127.0.0.1`` on a port the OS picks, in a daemon thread,
and answers the Anthropic Messages API (``POST /v1/messages``) and the OpenAI chat API
(``POST /v1/chat/completions``, ``GET /v1/models``) from a *script*: a list of steps, one
consumed per request whatever its path. A step is

- a :class:`Reply` (status, JSON body, headers): a success, or a 429 with ``retry-after``,
  a 529 ``overloaded_error``, a 500, a 401 ``authentication_error``, ...;
- :data:`DROP`: read the request, then close the socket without a response;
- a callable taking the :class:`RecordedRequest` and returning one of the two above.

With :attr:`FakeModelServer.batches` set to a :class:`FakeBatchAPI`, the Message Batches
endpoints (``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}`` and its
``results_url``, a JSONL stream) are served by it, statefully, outside the script.

Every request is recorded (method, path, lower-cased headers, raw and decoded JSON body).
A request beyond the script gets a non-retryable 418 and counts as an *overrun*; the
``fake_server`` fixture stops the server when the test ends and fails the test on overruns.

The server lives in the test-support package, not in a ``conftest.py``: the provider
tests, the runs in ``tests/run/`` and ``tests/compose/`` and the cache tests all use it.
Tests reach it through the ``fake_server`` and ``anthropic_env`` fixtures (``tests/conftest.py``
imports them from here), whose step builders are attributes (``fake_server.message(...)``,
``fake_server.anthropic_error(...)``, ``fake_server.kmp_messages(seed, cases)``,
``fake_server.DROP``), and import its names from ``tests.support.fake_server`` (the root is
on ``sys.path`` by pytest's ``pythonpath`` setting).
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import count
from types import TracebackType
from typing import Any, Final, Literal, TypeAlias
from urllib.parse import parse_qsl, urlsplit

import pytest

__all__ = [
    "DROP",
    "FakeBatchAPI",
    "FakeModelServer",
    "RecordedRequest",
    "Reply",
    "Step",
    "anthropic_env",
    "anthropic_error",
    "chat_completion",
    "fake_server",
    "kmp_messages",
    "message",
    "message_body",
    "models",
    "openai_error",
    "right_kmp_replies",
]

DROP: Final = "drop"
"""A step that closes the connection without sending any response."""


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP response."""

    status: int = 200
    """HTTP status code."""
    body: Any = None
    """JSON data sent as the body (``None``: an empty body)."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers, e.g. ``{"retry-after": "1"}``."""
    raw: bytes | None = None
    """Bytes sent as they are instead of ``body`` (truncated JSON, an HTML page)."""
    content_type: str = "application/json"
    drip: float = 0.0
    """Seconds between the body's bytes, sent one at a time (a slow or stalling proxy)."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    raw: bytes
    """The body as sent."""

    @property
    def json(self) -> Any:
        """The body decoded as JSON (``None`` when empty)."""
        return json.loads(self.raw) if self.raw else None


Step: TypeAlias = Reply | Literal["drop"] | Callable[[RecordedRequest], Reply | Literal["drop"]]
_ids = count(1)


# -- step builders -------------------------------------------------------------------------


def message_body(
    text: str | list[str] = "ok",
    *,
    model: str = "claude-test-model",
    stop_reason: str | None = "end_turn",
    input_tokens: int = 11,
    output_tokens: int = 7,
    cache_read_input_tokens: int = 0,
    cache_creation_input_tokens: int = 0,
) -> dict[str, Any]:
    """A valid Messages API success body (one text block per string in ``text``)."""
    texts = [text] if isinstance(text, str) else text
    return {
        "id": f"msg_fake{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": part} for part in texts],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "cache_read_input_tokens": cache_read_input_tokens,
            "cache_creation_input_tokens": cache_creation_input_tokens,
        },
    }


def message(text: str | list[str] = "ok", **fields: Any) -> Reply:
    """A 200 reply with a Messages API body (see :func:`message_body`)."""
    return Reply(200, message_body(text, **fields))


def anthropic_error(
    status: int,
    error_type: str,
    text: str = "fake error",
    *,
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """An Anthropic error reply, e.g. ``anthropic_error(529, "overloaded_error", "Overloaded")``."""
    body = {"type": "error", "error": {"type": error_type, "message": text}}
    return Reply(status, body, dict(headers or {}))


def chat_completion(
    text: str = "ok",
    *,
    model: str = "local-test-model",
    finish_reason: str = "stop",
    prompt_tokens: int = 13,
    completion_tokens: int = 5,
) -> Reply:
    """A 200 reply with an OpenAI chat completion body."""
    body = {
        "id": f"chatcmpl-fake{next(_ids):06d}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish_reason,
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
    return Reply(200, body)


def chat_completion_with(
    text: str = "fine", *, model: Any = "local-test-model", **changes: Any
) -> Reply:
    """:func:`chat_completion` with top-level fields, its first choice's (``choice_``) or its
    message's (``message_``) fields replaced."""
    body = json.loads(json.dumps(chat_completion(text, model=model).body))
    for name, value in changes.items():
        if name.startswith("choice_"):
            body["choices"][0][name.removeprefix("choice_")] = value
        elif name.startswith("message_"):
            body["choices"][0]["message"][name.removeprefix("message_")] = value
        else:
            body[name] = value
    return Reply(200, body)


def openai_error(status: int, error_type: str, text: str = "fake error") -> Reply:
    """An OpenAI-style error reply."""
    return Reply(status, {"error": {"message": text, "type": error_type, "code": None}})


def right_kmp_replies(seed: int, cases: int) -> dict[str, str]:
    """The right reply to each ``kmp`` case a run of ``cases`` cases with ``seed`` plans, by
    the case's user prompt (what a step finds in the request)."""
    from verification.config import packaged_scaffolds_dir
    from verification.llm.prompt_builder import PromptBuilder
    from verification.registry import get_spec
    from verification.runner import plan_cases

    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec("kmp")
    return {
        builder.build("kmp", case.input).user: spec.render_answer(case.expected)
        for case in plan_cases(["kmp"], seed=seed, cases=cases)["kmp"]
    }


def kmp_messages(
    seed: int, cases: int, *, suffix: str = "", **fields: Any
) -> Callable[[RecordedRequest], Reply]:
    """A step answering any ``kmp`` case of such a run right through the Messages API (the
    reply followed by ``suffix``; ``fields`` as :func:`message_body` takes them)."""
    replies = right_kmp_replies(seed, cases)

    def answer(sent: RecordedRequest) -> Reply:
        return message(replies[sent.json["messages"][0]["content"]] + suffix, **fields)

    return answer


def models(*names: str) -> Reply:
    """A 200 reply to ``GET /v1/models``."""
    data = [
        {"id": name, "object": "model", "created": 0, "owned_by": "fake"}
        for name in names or ("local-test-model",)
    ]
    return Reply(200, {"object": "list", "data": data})


# -- Message Batches -----------------------------------------------------------------------

BatchAnswer: TypeAlias = Callable[[str, dict[str, Any]], dict[str, Any]]
"""(custom_id, params) -> the request's ``result`` object (``succeeded`` with a message,
``errored``, ``canceled`` or ``expired``)."""


def batch_succeeded(text: str, **fields: Any) -> dict[str, Any]:
    """A ``succeeded`` batch result with a Messages API body (see :func:`message_body`)."""
    return {"type": "succeeded", "message": message_body(text, **fields)}


def batch_errored(error_type: str = "overloaded_error") -> dict[str, Any]:
    """An ``errored`` batch result."""
    return {
        "type": "errored",
        "error": {"type": "error", "error": {"type": error_type, "message": "fake error"}},
    }


class FakeBatchAPI:
    """Message Batches as the API serves them: a batch is created ``in_progress``, ends
    after ``polls`` retrievals (never, when ``None``) or once canceled, and its results
    (``answer`` of each request, fixed when it ends, in reverse order: the API promises no
    order) stream as JSONL. Batches are listed newest first, a page at a time.

    The attributes after ``answer`` and ``polls`` make it hostile or slow: a create call
    answered late, a cancel or a list refused, results at another URL, mangled or dripped.
    """

    def __init__(self, answer: BatchAnswer, *, polls: int | None = 1) -> None:
        self.answer = answer
        self.polls = polls
        self.created: list[list[dict[str, Any]]] = []
        """Each batch's requests, in creation order."""
        self.created_at: list[float] = []
        """Each batch's creation time (``time.time()``)."""
        self.retrievals: Counter[str] = Counter()
        self.canceled: set[str] = set()
        """Batches the client asked to cancel."""
        self.finished_when_canceled = 0
        """Requests of a batch (in creation order) done when it is canceled: they end
        ``succeeded`` (and billed), the rest ``canceled``."""
        self.create_delay = 0.0
        """Seconds between making a batch and answering the call that made it."""
        self.cancel_reply: Reply | None = None
        """Answers every cancel instead (a 404, say): the batch goes on."""
        self.list_reply: Reply | None = None
        """Answers every listing instead (a 403, say)."""
        self.results_url: Callable[[str, str], str | None] | None = None
        """(base URL, batch id) -> an ended batch's ``results_url`` (default: the API's)."""
        self.results_body: Callable[[bytes], bytes] | None = None
        """Rewrites the results JSONL before it is sent."""
        self.results_drip = 0.0
        """Seconds between the results' bytes."""
        self._results: dict[int, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    @property
    def billed(self) -> list[tuple[str, str]]:
        """(batch id, custom id) of every request that ended ``succeeded``: what is paid,
        read or not."""
        with self._lock:
            return [
                (f"msgbatch_fake{index}", line["custom_id"])
                for index, lines in sorted(self._results.items())
                for line in lines
                if line["result"].get("type") == "succeeded"
            ]

    def batch_object(self, index: int, base_url: str) -> dict[str, Any]:
        """The ``index``-th batch as the API shows it (to build a hostile listing)."""
        with self._lock:
            return self._batch(index, base_url)

    def handle(self, request: RecordedRequest, base_url: str) -> Reply:
        parts = request.path.split("?")[0].rstrip("/").split("/")[4:]  # after /v1/messages/batches
        if request.method == "POST" and not parts:
            with self._lock:
                self.created.append(list(request.json["requests"]))
                self.created_at.append(time.time())
                index = len(self.created) - 1
            time.sleep(self.create_delay)  # made, not yet answered: a kill now loses its id
            with self._lock:
                return Reply(200, self._batch(index, base_url))
        with self._lock:
            if not parts and request.method == "GET":
                return self.list_reply or self._page(request.path, base_url)
            index = self._index(parts[0]) if parts else None
            if index is None:
                return anthropic_error(404, "not_found_error", "no such batch")
            if len(parts) == 1:
                self.retrievals[parts[0]] += 1
                return Reply(200, self._batch(index, base_url))
            if parts[1:] == ["cancel"] and request.method == "POST":
                if self.cancel_reply is not None:
                    return self.cancel_reply
                self.canceled.add(parts[0])
                return Reply(200, self._batch(index, base_url))
            if parts[1:] == ["results"] and self._ended(index):
                lines = self._results[index]
                raw = "".join(json.dumps(line) + "\n" for line in reversed(lines)).encode()
                if self.results_body is not None:
                    raw = self.results_body(raw)
                return Reply(
                    200, raw=raw, content_type="application/binary", drip=self.results_drip
                )
            return anthropic_error(404, "not_found_error", "no results yet")

    def _index(self, batch_id: str) -> int | None:
        prefix = "msgbatch_fake"
        if not batch_id.startswith(prefix) or not batch_id[len(prefix) :].isdigit():
            return None
        index = int(batch_id[len(prefix) :])
        return index if index < len(self.created) else None

    def _ended(self, index: int) -> bool:
        batch_id = f"msgbatch_fake{index}"
        ended = batch_id in self.canceled or (
            self.polls is not None and self.retrievals[batch_id] >= self.polls
        )
        if ended and index not in self._results:  # what it did is fixed (and billed) once
            done = len(self.created[index])
            if batch_id in self.canceled:
                done = min(done, self.finished_when_canceled)
            self._results[index] = [
                {
                    "custom_id": r["custom_id"],
                    "result": self.answer(r["custom_id"], r["params"])
                    if n < done
                    else {"type": "canceled"},
                }
                for n, r in enumerate(self.created[index])
            ]
        return ended

    def _page(self, path: str, base_url: str) -> Reply:
        """One page of the list, newest first (``limit``, ``after_id``, ``before_id``)."""
        query = dict(parse_qsl(urlsplit(path).query))
        limit = int(query.get("limit", 20))
        ids = [f"msgbatch_fake{index}" for index in reversed(range(len(self.created)))]
        start = 0
        if "after_id" in query and query["after_id"] in ids:
            start = ids.index(query["after_id"]) + 1
        end = len(ids)
        if "before_id" in query and query["before_id"] in ids:
            end = ids.index(query["before_id"])
            start = max(start, end - limit)
        page = ids[start : min(end, start + limit)]
        data = [self._batch(self._index(batch_id) or 0, base_url) for batch_id in page]
        return Reply(
            200,
            {
                "data": data,
                "has_more": start + len(page) < end,
                "first_id": page[0] if page else None,
                "last_id": page[-1] if page else None,
            },
        )

    def _batch(self, index: int, base_url: str) -> dict[str, Any]:
        batch_id = f"msgbatch_fake{index}"
        ended = self._ended(index)
        total = len(self.created[index])
        kinds = Counter(line["result"].get("type") for line in self._results.get(index, []))
        url = f"{base_url}/v1/messages/batches/{batch_id}/results"
        if self.results_url is not None:
            url = self.results_url(base_url, batch_id)
        created = datetime.fromtimestamp(self.created_at[index], UTC)
        canceling = batch_id in self.canceled
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else total,
                "succeeded": kinds["succeeded"],
                "errored": kinds["errored"],
                "canceled": kinds["canceled"],
                "expired": kinds["expired"],
            },
            "created_at": created.isoformat().replace("+00:00", "Z"),
            "expires_at": (created + timedelta(days=1)).isoformat().replace("+00:00", "Z"),
            "ended_at": "2026-11-24T00:01:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": created.isoformat().replace("+00:00", "Z")
            if canceling
            else None,
            "results_url": url if ended else None,
        }


# -- the server ----------------------------------------------------------------------------

_OVERRUN = Reply(
    418,
    {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "fake server: script exhausted"},
    },
)


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer

    @property
    def protocol_version(self) -> str:  # type: ignore[override]
        # HTTP/1.0: one request per connection, so a DROP never hits a pooled connection;
        # a server told to keep connections alive answers in HTTP/1.1 (a long run's
        # thousands of requests then cost no connection and no server thread each).
        return "HTTP/1.1" if self.server.owner.keep_alive else "HTTP/1.0"

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests assert on what reaches stderr."""

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        request = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={name.lower(): value for name, value in self.headers.items()},
            raw=self.rfile.read(length) if length else b"",
        )
        owner = self.server.owner
        if owner.batches is not None and request.path.startswith("/v1/messages/batches"):
            owner._record(request)
            outcome: Reply | Literal["drop"] = owner.batches.handle(request, owner.base_url)
        else:
            step = owner._take(request)
            outcome = step(request) if callable(step) else step
        if outcome == DROP:
            self.close_connection = True
            return  # nothing written: the client sees the connection close
        assert isinstance(outcome, Reply), f"bad scripted step {outcome!r}"
        data = b"" if outcome.body is None else json.dumps(outcome.body).encode()
        if outcome.raw is not None:
            data = outcome.raw
        self.send_response(outcome.status)
        self.send_header("content-type", outcome.content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in outcome.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if not outcome.drip:
            with contextlib.suppress(OSError):  # the client is gone (killed, or past a deadline)
                self.wfile.write(data)
            return
        for index in range(len(data)):
            try:
                self.wfile.write(data[index : index + 1])
                self.wfile.flush()
            except OSError:  # the client gave up: that is the point of dripping
                return
            time.sleep(outcome.drip)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a burst of 64 connections is queued, not refused
    owner: FakeModelServer

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.owner._lock:
            self.owner._handling += 1
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.owner._lock:
                self.owner._handling -= 1


class FakeModelServer:
    """A scripted Anthropic/OpenAI look-alike on ``127.0.0.1``; use as a context manager."""

    DROP: Final = DROP
    Reply = Reply
    message = staticmethod(message)
    message_body = staticmethod(message_body)
    anthropic_error = staticmethod(anthropic_error)
    chat_completion = staticmethod(chat_completion)
    chat_completion_with = staticmethod(chat_completion_with)
    openai_error = staticmethod(openai_error)
    models = staticmethod(models)
    right_kmp_replies = staticmethod(right_kmp_replies)
    kmp_messages = staticmethod(kmp_messages)
    FakeBatchAPI = FakeBatchAPI
    batch_succeeded = staticmethod(batch_succeeded)
    batch_errored = staticmethod(batch_errored)

    def __init__(self, *, max_requests: int = 64) -> None:
        self.max_requests = max_requests
        """Requests served from the script at most; later ones are overruns."""
        self.overruns = 0
        """Requests that found the script exhausted (or the cap reached)."""
        self._steps: deque[Step] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._handling = 0
        self.batches: FakeBatchAPI | None = None
        """Serves the Message Batches endpoints when set."""
        self.keep_alive = False
        """Keep each connection open for the client's next request (HTTP/1.1); set it
        before the first request, and only for a script without :data:`DROP`."""

    # -- life cycle

    def start(self) -> FakeModelServer:
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.02},
            daemon=True,
            name=f"fake-model-server-{self.port}",
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            # serve_forever looks for the shutdown between waits of up to poll_interval; a
            # connection ends the wait at once, so no test sits out the rest of a poll. One
            # that comes before the shutdown is asked for is an empty request (no step, no
            # record): knock again until the shutdown is done.
            stopping = threading.Thread(target=self._httpd.shutdown, daemon=True)
            stopping.start()
            while stopping.is_alive():
                with contextlib.suppress(OSError):
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                stopping.join(0.005)
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses

    @property
    def port(self) -> int:
        assert self._httpd is not None, "the server is not running"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """Root URL: the Anthropic SDK's ``base_url`` (it appends ``/v1/messages``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        """The OpenAI SDK's ``base_url`` (it appends ``/chat/completions``)."""
        return f"{self.base_url}/v1"

    # -- script and record

    def script(self, steps: Iterable[Step]) -> None:
        """Queue ``steps`` (after any still pending), one consumed per request."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def remaining(self) -> int:
        """Steps not consumed yet."""
        with self._lock:
            return len(self._steps)

    def settled(self, timeout: float = 30.0) -> None:
        """Wait until every connection made so far has been read and handled: none is being
        handled and none waits to be accepted, twice in a row a poll interval apart (so an
        accept under way is seen). A client killed after sending a request leaves it to be
        read and recorded after its death; count requests after this. Meant for one request
        per connection (the default): a kept-alive connection is handled until it closes."""
        assert self._httpd is not None, "the server is not started"
        deadline = time.monotonic() + timeout
        quiet = 0
        while quiet < 2:
            with self._lock:
                busy = self._handling > 0
            waiting = bool(select.select([self._httpd.socket], [], [], 0)[0])
            quiet = 0 if busy or waiting else quiet + 1
            assert time.monotonic() < deadline, f"a connection still handled after {timeout} s"
            time.sleep(0.025)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _take(self, request: RecordedRequest) -> Step:
        with self._lock:
            self._requests.append(request)
            if not self._steps or len(self._requests) > self.max_requests:
                self.overruns += 1
                return _OVERRUN
            return self._steps.popleft()


def _no_certificates(monkeypatch: pytest.MonkeyPatch, factory: pytest.TempPathFactory) -> None:
    """Give the SDKs' HTTP clients an empty folder of CA certificates (``SSL_CERT_DIR``; both
    httpx and the SDKs read it when ``SSL_CERT_FILE`` is unset). The fake server speaks plain
    HTTP, so no certificate is ever looked up; by default each client loads the whole CA
    bundle when it is made, about 30 ms of CPU for each provider a test or a run builds (188
    in tests/llm, tests/store and tests/config alone). A request that strayed to an https://
    server would fail its handshake here instead of going out."""
    empty = factory.getbasetemp() / "no-certificates"
    empty.mkdir(exist_ok=True)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.setenv("SSL_CERT_DIR", str(empty))


@pytest.fixture
def fake_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FakeModelServer]:
    """A running :class:`FakeModelServer`, stopped when the test ends; fails the test if a
    request found the script exhausted. The SDKs' clients made while it runs read no CA
    bundle (see :func:`_no_certificates`)."""
    _no_certificates(monkeypatch, tmp_path_factory)
    with FakeModelServer() as server:
        yield server
    assert server.overruns == 0, (
        f"{server.overruns} request(s) beyond the script: "
        f"{[(r.method, r.path) for r in server.requests]}"
    )


@pytest.fixture
def anthropic_env(
    fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[FakeModelServer]:
    """``fake_server`` as the Anthropic API of every run the test starts: no other
    ``VERIFY_*`` or ``ANTHROPIC_*`` setting, the test module's ``KEY`` as the API key (a
    canary a test can look for), and retries that wait 10 ms."""
    import os

    for name in [n for n in os.environ if n.startswith(("VERIFY_", "ANTHROPIC_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("ANTHROPIC_API_KEY", getattr(request.module, "KEY", "sk-ant-test-key"))
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    yield fake_server
