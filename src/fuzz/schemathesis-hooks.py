"""Safety and authentication for `users-api-kit fuzz`: Schemathesis loads this file through SCHEMATHESIS_HOOKS.

Only the target's `disposable` users may be changed or deleted, on any backend, in every phase (examples,
coverage, fuzzing and the stateful phase, whose links start from the list, whose first item is the
owner). Every request goes through `before_call` just before it is sent, after the stateful phase has
filled its path parameters from a link, so the guard sits there:

- A write (any method but GET, HEAD, OPTIONS, TRACE, QUERY) to `/api/users/{id}` whose id is not disposable is
  sent to a disposable id instead. DELETE goes to its own share of the disposable users, so PATCH keeps a
  live target for the whole run.
- A write without an id (PATCH or DELETE `/api/users/me`, or a method Schemathesis tries on a path that
  does not document it) acts on the caller or the collection: it is sent with a disposable user's token
  instead of the token fuzzed as, so a backend that wrongly honours it changes a disposable user at most.
- With USERS_API_KIT_READ_ONLY=1 the CLI excludes every writing method; a write that still reached this
  hook would be refused (an error in the report) rather than sent.

Schemathesis re-validates a case that a hook changed, so a rewritten id is not reported as negative data.

Every request reaches the target through the kit's guard (src/fuzz/response-guard.ts), which holds
each answer to the whole-request deadline (--request-timeout) and the size limit (--max-response-bytes, after
decompression), and refuses JSON nested too deep or holding too many values (what Schemathesis would
build of it, not its bytes, is what costs: 1 MiB of `[{},{},…]` took it to 6.9 GiB). What it refuses comes back as a 502 or 504 with the
header GUARD_HEADER and a message; `after_call` turns it into an error of the test case that says so,
before any check reads it.

A server that stopped answering ends the run instead of costing every remaining test case the whole
request timeout (a hanging server took ~2 minutes at a 1 s timeout): after SILENT_LIMIT timeouts in a
row (the guard's deadline, or a network error that took the whole timeout), or answers past the size
limit (an endless body, a compression bomb: each costs the guard the whole limit) or holding more JSON
values than any answer (each read whole), `before_call` refuses
to send, at once, saying why. An answer the guard let through starts the count again; its other refusals
(JSON nested too deep, a quick failure: a reset, bytes that are not HTTP) neither count nor reset it.

Environment (set by `users-api-kit fuzz`, never on the command line, so tokens stay out of `ps`):
  USERS_API_KIT_TOKEN            the token of the actor fuzzed as (the owner by default; `--as`), sent as `Authorization: Bearer`
  USERS_API_KIT_DISPOSABLE       JSON: [{"id": "...", "token": "..."}] from the target file
  USERS_API_KIT_READ_ONLY        "1" in --read-only runs
  USERS_API_KIT_REQUEST_TIMEOUT  seconds, the --timeout the guard holds every request to (default 10)
"""

import itertools
import json
import os
import threading
import time
from urllib.parse import quote, unquote

import schemathesis

SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE", "QUERY"}
ID_PARAMETER = "id"

TOKEN = os.environ.get("USERS_API_KIT_TOKEN", "")
READ_ONLY = os.environ.get("USERS_API_KIT_READ_ONLY") == "1"
POOL = json.loads(os.environ.get("USERS_API_KIT_DISPOSABLE") or "[]")

# The last disposable user is the identity of id-less writes; the others are split between PATCH and
# DELETE targets. A pool of one plays every part.
IDENTITY = POOL[-1] if POOL else None
TARGETS = POOL[:-1] or POOL
HALF = (len(TARGETS) + 1) // 2
# Path parameters are sent as Schemathesis leaves them, percent-encoded: an id is opaque and may hold any
# character (docs/contract.md §1), "/" and "%" included.
CHANGE_TARGETS = itertools.cycle([quote(user["id"], safe="") for user in TARGETS[:HALF]]) if TARGETS else None
DELETE_TARGETS = (
    itertools.cycle([quote(user["id"], safe="") for user in TARGETS[HALF:] or TARGETS]) if TARGETS else None
)
TARGET_IDS = {user["id"] for user in TARGETS}
DELETE_IDS = {user["id"] for user in TARGETS[HALF:] or TARGETS}

REQUEST_TIMEOUT = float(os.environ.get("USERS_API_KIT_REQUEST_TIMEOUT") or 10)
SILENT_LIMIT = 3
# The guard's answers carry it (src/fuzz/response-guard.ts, GUARD_HEADER): deadline, size, depth, values,
# transport.
GUARD_HEADER = "x-users-api-kit-guard"
# Timeouts (and oversized answers) in a row, shared by every worker, and what the last one got; when
# each worker's request started, its own.
_silence = {"in_a_row": 0, "last": "timeout"}
_silence_lock = threading.Lock()
_started = threading.local()


@schemathesis.auth(refresh_interval=None, retry_on=[])
class OwnerToken:
    """The token fuzzed as on every request (a case that tests a missing or bad token gets none)."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def before_call(context, case, **kwargs):
    with _silence_lock:
        in_a_row, last = _silence["in_a_row"], _silence["last"]
    if in_a_row >= SILENT_LIMIT:
        got, server = {
            "timeout": (f"no response within {REQUEST_TIMEOUT:g} s (timed out)", "a server that stopped answering"),
            "size": ("answers over --max-response-bytes", "a server whose answers do not end"),
            "values": ("answers of more JSON values than any users API answers", "a server whose answers cannot be read"),
        }[last]
        raise RuntimeError(
            f"users-api-kit fuzz did not send {case.method.upper()} {case.path}: the last {in_a_row} requests "
            f"to the target got {got}; nothing more is sent to {server}, so that the run ends."
        )
    _keep_writes_on_disposable_users(case)
    _started.at = time.monotonic()


@schemathesis.hook
def after_call(context, case, response):
    refusal = (response.headers.get(GUARD_HEADER) or [None])[0]
    with _silence_lock:
        if refusal in ("deadline", "size", "values"):
            _silence["in_a_row"] += 1
            _silence["last"] = "timeout" if refusal == "deadline" else refusal
        elif refusal is None:
            _silence["in_a_row"] = 0
    if refusal is not None:
        # The guard's message, e.g. "users-api-kit fuzz: GET /api/users got 200 with a body over 1 MiB …".
        raise RuntimeError(response.content.decode("utf-8", "replace"))


@schemathesis.hook
def after_network_error(context, case, request):
    # The hook is not told which error: a request that failed only after the whole timeout timed out.
    elapsed = time.monotonic() - getattr(_started, "at", time.monotonic())
    if elapsed >= REQUEST_TIMEOUT * 0.9:
        with _silence_lock:
            _silence["in_a_row"] += 1
            _silence["last"] = "timeout"


def _keep_writes_on_disposable_users(case):
    method = case.method.upper()
    if method in SAFE_METHODS:
        return
    if READ_ONLY or not POOL:
        raise RuntimeError(
            f"users-api-kit fuzz refused to send {method} {case.path}: this run may not write "
            "(--read-only, or the target has no disposable users)."
        )
    parameters = case.path_parameters or {}
    if ID_PARAMETER in parameters:
        target = unquote(str(parameters[ID_PARAMETER]))
        if method == "DELETE" and target not in DELETE_IDS:
            case.path_parameters = {**parameters, ID_PARAMETER: next(DELETE_TARGETS)}
        elif method != "DELETE" and target not in TARGET_IDS:
            case.path_parameters = {**parameters, ID_PARAMETER: next(CHANGE_TARGETS)}
        return
    headers = case.headers or {}
    if headers.get("Authorization") == f"Bearer {TOKEN}":
        case.headers = {**headers, "Authorization": f"Bearer {IDENTITY['token']}"}
