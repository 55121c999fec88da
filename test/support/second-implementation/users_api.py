#!/usr/bin/env python3
"""A second, independent implementation of the users API (docs/contract.md §1-§6).

Python standard library only (3.10+). Written from docs/contract.md and openapi/users.yaml alone, to show
that the contract suite (`users-api-kit verify`) accepts a correct backend that made other choices than
the mock wherever the contract leaves room. See README.md beside this file.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import signal
import socket
import sys
import threading
import time
import traceback
import urllib.parse
import uuid
from collections import deque
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# ---------------------------------------------------------------------------------------------------------
# Constants of the contract

ROLES = ("CLIENT_OWNER", "CLIENT_ADMIN", "CLIENT_VIEWER", "BOT_USER")
OWNER, ADMIN, VIEWER, BOT = ROLES
STATUSES = ("ACTIVE", "INVITED", "SUSPENDED")
SETTABLE_STATUSES = ("ACTIVE", "SUSPENDED")
PATCH_KEYS = ("name", "role", "status")

MAX_BODY = 16 * 1024  # §4: a body over 16,384 bytes is 413
MAX_ID_LENGTH = 4096  # §3: a longer id cannot be an id (code points, once percent-decoded)
MAX_NAME = 100
MAX_SEARCH = 100
MAX_PAGE = 2**53 - 1
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
MAX_LISTED_ISSUES = 100

# ECMAScript's String.prototype.trim set (§1): Zs, TAB, VT, FF, LF, CR, U+2028, U+2029, U+FEFF.
# Not Python's str.strip() set: that one also removes U+0085, U+001C-U+001F, and misses U+FEFF.
ES_WHITE_SPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

REASON = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    500: "Internal Server Error",
}

CODE_OF_STATUS = {
    400: "VALIDATION_FAILED",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "USER_NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "INVALID_TRANSITION",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    500: "INTERNAL",
}

# Typed problems (--problem-type typed): our own problem types, each with its own short summary as title.
PROBLEM_BASE = "https://errors.example.com/"
TYPED_PROBLEMS = {
    "VALIDATION_FAILED": ("validation", "The request did not pass validation"),
    "UNAUTHENTICATED": ("authentication", "A valid access token is required"),
    "FORBIDDEN": ("forbidden", "Your role does not allow this action"),
    "USER_NOT_FOUND": ("no-such-user", "No such user in your organization"),
    "NOT_FOUND": ("no-such-route", "No such route in this API"),
    "METHOD_NOT_ALLOWED": ("method", "This path does not answer that method"),
    "INVALID_TRANSITION": ("invalid-transition", "The user's state does not allow this change"),
    "PAYLOAD_TOO_LARGE": ("too-large", "The request body is too large"),
    "UNSUPPORTED_MEDIA_TYPE": ("media-type", "The request body is not sent as plain JSON"),
    "INTERNAL": ("internal", "Something failed on our side"),
}


# ---------------------------------------------------------------------------------------------------------
# Options


@dataclass
class Options:
    problem_type: str = "typed"  # typed | blank
    charset: bool = False  # application/json; charset=utf-8 or application/json
    realm: bool = True  # WWW-Authenticate: Bearer realm="users"
    count_required_issue: bool = True  # a body of only unknown keys also gets "give at least one of …"
    allow_order: str = "patch-first"  # patch-first | doc | mock | alpha
    allow_extras: bool = True  # HEAD and OPTIONS named in Allow besides the documented methods
    timestamps: str = "seconds"  # seconds | millis
    extra_fields: bool = True  # extra fields on users, in meta, in envelopes and problems
    retry_delays: tuple = (1.0, 2.0, 4.0, 8.0, 16.0)
    id_style: str = "uuid"  # uuid | odd (ids with characters a URL must percent-encode)
    compress: bool = False  # gzip the answers of clients that accept it
    signatures: int = 1  # 2: webhook-signature also carries a signature by a retired key, first
    deliver_twice: bool = False  # at-least-once taken literally: every event is sent again after its 2xx
    lower: str = "full"  # full | simple: Unicode's lower-case mapping that search applies
    log: bool = False


ALLOW_ORDERS = {
    "patch-first": ("PATCH", "GET", "DELETE"),
    "doc": ("GET", "PATCH", "DELETE"),
    "mock": ("GET", "DELETE", "PATCH"),
    "alpha": ("DELETE", "GET", "PATCH"),
}


# ---------------------------------------------------------------------------------------------------------
# Time


def now_ms() -> int:
    return int(time.time() * 1000)


def format_ts(ms: int, opts: Options) -> str:
    seconds, millis = divmod(ms, 1000)
    base = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    if opts.timestamps == "millis":
        return f"{base}.{millis:03d}Z"
    return f"{base}Z"


def lower_case(text: str, opts: Options) -> str:
    """Lower-cased for search: Unicode's full mapping (str.lower()), or its simple one, code point by code point.

    The contract leaves the choice open. Only U+0130 (İ) lower-cases to more than one code point (i and a
    combining dot); its simple mapping is i. A Σ lower-cased alone is σ, never the final ς.
    """
    if opts.lower == "full":
        return text.lower()
    return "".join("i" if c == "\u0130" else c.lower() for c in text)


def next_updated_at(previous_ms: int, opts: Options) -> int:
    """updatedAt for a real change: never equal to the previous one, never earlier.

    With whole seconds two changes within one second would otherwise share a value; the rule is
    max(now, previous + one unit), one unit being a second (seconds) or a millisecond (millis).
    """
    unit = 1000 if opts.timestamps == "seconds" else 1
    now = now_ms()
    now -= now % unit
    return max(now, previous_ms + unit)


def event_timestamp() -> str:
    # RFC 3339 with microseconds and a numeric offset: another legitimate spelling than ...Z.
    t = time.time()
    seconds = int(t)
    micros = int((t - seconds) * 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{micros:06d}+00:00"


# ---------------------------------------------------------------------------------------------------------
# JSON


_SURROGATE = re.compile("[\ud800-\udfff]")


def to_json_bytes(value) -> bytes:
    """Compact JSON in UTF-8. A lone surrogate (a JSON body may hold "\\ud800") is written as an escape."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group(0)), text)
    return text.encode("utf-8")


class _Number:
    """Stands for any JSON number in a PATCH body: none is valid there, and big ones need no converting."""


def _refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str):
    return json.loads(
        text,
        parse_int=lambda s: _Number(),
        parse_float=lambda s: _Number(),
        parse_constant=_refuse_constant,
    )


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, _Number):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "something else"


def pointer(key: str) -> str:
    """RFC 6901: ~ is ~0 and / is ~1."""
    return "/" + key.replace("~", "~0").replace("/", "~1")


# ---------------------------------------------------------------------------------------------------------
# The store


@dataclass
class User:
    id: str
    email: str
    name: str
    role: str
    organization_id: str
    status: str
    created_ms: int
    updated_ms: int
    token: str
    locale: str = "en-GB"
    last_seen_ms: int | None = None

    def public(self, opts: Options) -> dict:
        # Another key order than the contract's table, on purpose: clients read keys, not positions.
        out = {
            "id": self.id,
            "organizationId": self.organization_id,
            "email": self.email,
            "name": self.name,
            "role": self.role,
            "status": self.status,
            "createdAt": format_ts(self.created_ms, opts),
            "updatedAt": format_ts(self.updated_ms, opts),
        }
        if opts.extra_fields:
            out["locale"] = self.locale
            out["lastSeenAt"] = None if self.last_seen_ms is None else format_ts(self.last_seen_ms, opts)
        return out


@dataclass
class Store:
    users: dict = field(default_factory=dict)  # id -> User
    tokens: dict = field(default_factory=dict)  # token -> user id
    lock: threading.RLock = field(default_factory=threading.RLock)

    def add(self, user: User) -> None:
        assert user.id not in self.users, user.id
        assert user.token not in self.tokens
        assert all(u.email.lower() != user.email.lower() for u in self.users.values()), user.email
        self.users[user.id] = user
        self.tokens[user.token] = user.id


# ---------------------------------------------------------------------------------------------------------
# Seed data: deterministic, our own names; ids are UUIDs, organizations "acme-ltd" and "org-7".

ORG_A = "acme-ltd"
ORG_B = "org-7"

# (name, email, role, status); the first five of A are the actors owner, (second owner), admin, viewer, bot.
SEED_A = [
    ("Zoë Ørsted", "zoe.orsted@acme-ltd.example", OWNER, "ACTIVE"),
    ("Łukasz Żółkiewski", "Lukasz.Zolkiewski@Acme-Ltd.example", OWNER, "ACTIVE"),
    ("Chloé Dubois", "chloe.dubois@acme-ltd.example", ADMIN, "ACTIVE"),
    ("José Álvarez", "jose.alvarez@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Deploy Bot ⚙", "deploy-bot@acme-ltd.example", BOT, "ACTIVE"),
    ("Søren Kierkegaard", "soren.k@acme-ltd.example", OWNER, "SUSPENDED"),
    ("Ingrid Bergström", "ingrid.bergstrom@acme-ltd.example", OWNER, "INVITED"),
    ("Σωκράτης Παπαδόπουλος", "sokratis.p@acme-ltd.example", ADMIN, "ACTIVE"),
    ("Jürgen Straßmann", "juergen.strassmann@acme-ltd.example", ADMIN, "ACTIVE"),
    ("Ana María Núñez", "ana.nunez@acme-ltd.example", ADMIN, "SUSPENDED"),
    ("Nguyễn Văn An", "an.nguyen@acme-ltd.example", ADMIN, "INVITED"),
    ("李小龙", "xiaolong.li@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Åsa Lindqvist", "asa.lindqvist@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Đorđe Petrović", "djordje.petrovic@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Siobhán O'Brien", "s.o'brien+ops@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Max Mustermann", "max_mustermann@acme-ltd.example", VIEWER, "SUSPENDED"),
    ("Émilie Lefèvre", "emilie.lefevre@acme-ltd.example", VIEWER, "INVITED"),
    ("Ĳsbrand van Dijk", "ijsbrand@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Çağla Yılmaz", "cagla.yilmaz@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Bjørn Ødegård", "bjorn.odegard@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Report Bot", "reports%bot@acme-ltd.example", BOT, "ACTIVE"),
    ("Sync Bot", "sync-bot@acme-ltd.example", BOT, "SUSPENDED"),
    ("Import Bot", "import-bot@acme-ltd.example", BOT, "INVITED"),
    ("Ana Lúcia Ferreira", "ana.ferreira@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Anaïs Moreau", "anais.moreau@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Hannah Arendt", "HANNAH.ARENDT@ACME-LTD.EXAMPLE", ADMIN, "ACTIVE"),
    ("Dana Scully", "dana.scully@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Oona Chaplin", "oona@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Mårten Ekström", "marten.ekstrom@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Fatima Zahra El Amrani", "fatima.elamrani@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Kofi Annan-Mensah", "kofi.mensah@acme-ltd.example", VIEWER, "SUSPENDED"),
    ("Priya Raghunathan", "priya.r@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Yuki Tanaka 田中", "yuki.tanaka@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Olúwadámilọ́lá Adébáyọ̀", "dami.adebayo@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Renée Zellweger", "renee.z@acme-ltd.example", ADMIN, "ACTIVE"),
    ("Gøran Ånesen", "goran.anesen@acme-ltd.example", VIEWER, "INVITED"),
    ("Tomás Ó Súilleabháin", "tomas.osullivan@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Mikaël Kerbrat", "mikael.kerbrat@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Zdeněk Svěrák", "zdenek.sverak@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ælfgifu of Northampton", "aelfgifu@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ω Omega Tester", "omega@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ines Sainz", "ines.sainz@acme-ltd.example", VIEWER, "ACTIVE"),
    ("İlkay Gündoğan", "ilkay.gundogan@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Noël Coward", "noel.coward@acme-ltd.example", VIEWER, "ACTIVE"),
    ("100% Real Person", "realperson@acme-ltd.example", VIEWER, "ACTIVE"),
    ("under_score Person", "under_score@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Backup Bot", "backup.bot@acme-ltd.example", BOT, "ACTIVE"),
    ("Hélène Boucher", "helene.boucher@acme-ltd.example", ADMIN, "ACTIVE"),
    ("Ramón y Cajal", "ramon.cajal@acme-ltd.example", VIEWER, "SUSPENDED"),
    ("Wiebke Schröder", "wiebke.schroeder@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ayşe Kaya", "ayse.kaya@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Maëlle Le Gall", "maelle.legall@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Þórunn Jónsdóttir", "thorunn@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ōkubo Ren", "okubo.ren@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Rāmānujan S.", "ramanujan@acme-ltd.example", ADMIN, "INVITED"),
    ("Beatriz Sánchez", "beatriz.sanchez@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Kelvin Kay", "kelvin.kay@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Adrián Rojas", "adrian.rojas@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Małgorzata Wiśniewska", "malgorzata.w@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Ferhat Öztürk", "ferhat.ozturk@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Lena Nowak", "lena.nowak@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Audit Bot", "audit.bot@acme-ltd.example", BOT, "ACTIVE"),
    ("Ångel Eriksson", "angel.eriksson@acme-ltd.example", OWNER, "ACTIVE"),
    ("Vera Lúcia Ramos", "vera.ramos@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Tiago Gonçalves", "tiago.goncalves@acme-ltd.example", VIEWER, "ACTIVE"),
    ("Eos Dawn", "eos@acme-ltd.example", VIEWER, "ACTIVE"),
]

SEED_B = [
    ("Olga Outsider", "olga@org7.example", OWNER, "ACTIVE"),  # the outsider actor
    ("Zoë Ørsted", "zoe.orsted@org7.example", ADMIN, "ACTIVE"),  # same name as A's owner: isolation
    ("José Álvarez", "jose@org7.example", VIEWER, "ACTIVE"),
    ("Ana Silva", "ana.silva@org7.example", VIEWER, "SUSPENDED"),
    ("Org7 Bot", "bot@org7.example", BOT, "ACTIVE"),
    ("Pending Person", "pending@org7.example", VIEWER, "INVITED"),
    ("Chloé Martin", "chloe.martin@org7.example", ADMIN, "ACTIVE"),
    ("Dana Lee", "dana.lee@org7.example", VIEWER, "ACTIVE"),
]

LOCALES = ("en-GB", "fr-FR", "de-DE", "pl-PL", "es-ES", "sv-SE", "el-GR", "ja-JP", "tr-TR", "pt-BR")


@dataclass
class Seeded:
    store: Store
    actors: dict  # owner/admin/viewer/bot/outsider -> token
    disposable: list  # [{id, token}]
    inactive: dict  # invited/suspended -> token: users of A whose tokens are refused


def seed(opts: Options, disposable: int, seed_value: int) -> Seeded:
    rng = random.Random(seed_value)
    store = Store()

    def new_id() -> str:
        value = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        if opts.id_style == "odd":
            # Still opaque, unique and at most 4,096 characters; a client has to percent-encode it in a
            # path (space, slash, percent, plus, non-ASCII). Only BMP characters below U+D800, so that
            # "plain string comparison" orders them alike in UTF-16 code units and in code points.
            return f"Ω {value[:8]}/ü%{value[9:13]}+é:{value[14:18]}"
        return value

    def actor_token() -> str:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        return "".join(rng.choice(alphabet) for _ in range(48))

    def plain_token() -> str:
        return "tok." + "%032x" % rng.getrandbits(128)

    base_ms = 1_735_722_000_000  # 2025-01-01T09:00:00Z
    millis = opts.timestamps == "millis"

    def created(i: int) -> int:
        # Users come in pairs sharing one createdAt, so that ids break ties; 97 minutes apart.
        slot = i // 2
        ms = base_ms + slot * 97 * 60_000
        if millis:
            ms += (slot * 137) % 1000
        return ms

    def updated(i: int, created_ms: int) -> int:
        if i % 3 == 0:
            return created_ms
        extra = (i % 7 + 1) * 86_400_000 + (i * 3_001 if millis else (i % 50) * 1000)
        return created_ms + extra

    actors: dict = {}
    inactive: dict = {}
    index = 0
    for org, rows in ((ORG_A, SEED_A), (ORG_B, SEED_B)):
        for position, (name, email, role, status) in enumerate(rows):
            c = created(index)
            token = actor_token() if position < 5 else plain_token()
            user = User(
                id=new_id(),
                email=email,
                name=name,
                role=role,
                organization_id=org,
                status=status,
                created_ms=c,
                updated_ms=updated(index, c),
                token=token,
                locale=LOCALES[index % len(LOCALES)],
                last_seen_ms=None if status == "INVITED" else c + 3_600_000 * (index % 5 + 1),
            )
            store.add(user)
            if org == ORG_A and position in (0, 2, 3, 4):
                actors[{0: "owner", 2: "admin", 3: "viewer", 4: "bot"}[position]] = token
            if org == ORG_B and position == 0:
                actors["outsider"] = token
            if org == ORG_A and status != "ACTIVE":
                inactive.setdefault(status.lower(), token)
            index += 1

    disposables = []
    later = base_ms + 400 * 86_400_000  # a year and more after the seed users
    for n in range(disposable):
        # Pairs again share a createdAt.
        c = later + (n // 2) * 60_000 + ((n // 2) * 7 % 1000 if millis else 0)
        token = plain_token()
        user = User(
            id=new_id(),
            email=f"probe{n + 1:03d}@acme-ltd.example",
            name=f"Probe Übung {n + 1:03d}",
            role=VIEWER,
            organization_id=ORG_A,
            status="ACTIVE",
            created_ms=c,
            updated_ms=c,
            token=token,
            locale="de-AT",
        )
        store.add(user)
        disposables.append({"id": user.id, "token": token})
    return Seeded(store, actors, disposables, inactive)


# ---------------------------------------------------------------------------------------------------------
# Webhooks (§6): Standard Webhooks signatures, per-user order, retries with growing delays.


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    if not secret.startswith("whsec_"):
        raise ValueError("a webhook secret starts with whsec_")
    key = base64.b64decode(secret[len("whsec_"):])
    signed = msg_id.encode() + b"." + str(timestamp).encode() + b"." + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


class Deliverer:
    """One queue per (endpoint, user): the events of one user go out in order, and a retried event holds
    back only the later events of that user. Each queue is drained by a worker thread of its own, started
    when the queue gets its first event and ended when it is empty."""

    ATTEMPT_TIMEOUT = 15.0

    def __init__(self, secret: str, endpoints: dict, opts: Options):
        self.secret = secret
        self.endpoints = endpoints  # organization id -> [url, ...]
        self.opts = opts
        self.lock = threading.Lock()
        self.queues: dict = {}
        self.stopping = threading.Event()

    def publish(self, organization_id: str, user_id: str, event_type: str, data: dict) -> None:
        """Called with the store's lock held, right after the change: the order of calls is the order of
        the changes. Returns at once; delivery happens on worker threads."""
        urls = self.endpoints.get(organization_id, [])
        if not urls:
            return
        msg_id = str(uuid.uuid4())
        payload = {"type": event_type, "timestamp": event_timestamp(), "data": data}
        if self.opts.extra_fields:
            # Consumers ignore fields they do not know (docs/contract.md §6): the event's id rides along.
            payload["id"] = msg_id
        body = to_json_bytes(payload)
        with self.lock:
            for url in urls:
                key = (url, user_id)
                queue = self.queues.get(key)
                if queue is None:
                    queue = deque()
                    self.queues[key] = queue
                    threading.Thread(target=self._drain, args=(key,), daemon=True).start()
                queue.append((msg_id, body, event_type))

    def _drain(self, key) -> None:
        url, _ = key
        while not self.stopping.is_set():
            with self.lock:
                queue = self.queues[key]
                if not queue:
                    del self.queues[key]
                    return
                msg_id, body, event_type = queue[0]
            self._deliver(url, msg_id, body, event_type)
            with self.lock:
                self.queues[key].popleft()

    def _deliver(self, url: str, msg_id: str, body: bytes, event_type: str) -> None:
        delays = list(self.opts.retry_delays)
        attempt = 0
        while True:
            attempt += 1
            outcome = self._attempt(url, msg_id, body)
            ok = isinstance(outcome, int) and 200 <= outcome < 300
            if self.opts.log:
                log(f"webhook {event_type} {msg_id} -> {url}: attempt {attempt}: {outcome}")
            if ok or not delays:
                if not ok:
                    log(f"webhook {event_type} {msg_id} -> {url}: given up after {attempt} attempts")
                elif self.opts.deliver_twice:
                    # Delivery is at least once (§6): the same event, same webhook-id, once more.
                    outcome = self._attempt(url, msg_id, body)
                    if self.opts.log:
                        log(f"webhook {event_type} {msg_id} -> {url}: sent again: {outcome}")
                return
            if self.stopping.wait(delays.pop(0)):
                return

    def _attempt(self, url: str, msg_id: str, body: bytes):
        parts = urllib.parse.urlsplit(url)
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "users-api-py-webhooks/1",
            "webhook-id": msg_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(self.secret, msg_id, timestamp, body),
        }
        if self.opts.signatures == 2:
            # Several signatures are separated by spaces (Standard Webhooks), as during a key rotation:
            # the first one is made with a retired key that the receiver does not know.
            retired = "whsec_" + base64.b64encode(hashlib.sha256(self.secret.encode()).digest()[:24]).decode()
            headers["webhook-signature"] = (sign(retired, msg_id, timestamp, body) + " "
                                            + headers["webhook-signature"])
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = cls(parts.hostname, parts.port, timeout=self.ATTEMPT_TIMEOUT)
        # The timeout above is per socket operation; this timer bounds the whole attempt to 15 s.
        watchdog = threading.Timer(self.ATTEMPT_TIMEOUT, lambda: _abort(conn))
        watchdog.daemon = True
        watchdog.start()
        try:
            path = parts.path or "/"
            if parts.query:
                path += "?" + parts.query
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            response.read(64 * 1024)
            return response.status
        except Exception as error:  # any failure is one failed attempt
            return f"{type(error).__name__}: {error}"
        finally:
            watchdog.cancel()
            conn.close()


def _abort(conn) -> None:
    sock = getattr(conn, "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------------------
# Requests: the answer of a check


class Answer(Exception):
    """An answer decided before the end of the pipeline (a problem, usually)."""

    def __init__(self, status: int, body=None, headers=None, content_type=None):
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or []
        self.content_type = content_type


def issue(where: str, path: str, message: str) -> dict:
    return {"in": where, "path": path, "message": message}


_PCT_VALID = re.compile(rb"(?:[^%]|%[0-9A-Fa-f]{2})*", re.S)


def strict_decode(raw: str, plus: bool) -> str | None:
    """Percent-decode `raw` (the request line, read as Latin-1); None when not validly percent-encoded or
    not UTF-8 once decoded."""
    data = raw.encode("latin-1", "replace")
    if plus:
        data = data.replace(b"+", b" ")
    if not _PCT_VALID.fullmatch(data):
        return None
    try:
        return urllib.parse.unquote_to_bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return None


def lenient_decode(raw: str) -> str:
    data = raw.encode("latin-1", "replace").replace(b"+", b" ")
    return urllib.parse.unquote_to_bytes(data).decode("utf-8", "replace")


_DIGITS = re.compile(r"[0-9]+")


def parse_integer(value: str, low: int, high: int) -> tuple[int | None, str | None]:
    if not _DIGITS.fullmatch(value):
        return None, f"must be a whole number written in decimal digits only, from {low} to {high}"
    significant = value.lstrip("0") or "0"
    if len(significant) > 17:
        return None, f"must be from {low} to {high}"
    number = int(significant)
    if number < low or number > high:
        return None, f"must be from {low} to {high}"
    return number, None


def trim_es(text: str) -> str:
    return text.strip(ES_WHITE_SPACE)


# ---------------------------------------------------------------------------------------------------------
# The HTTP handler


class App:
    def __init__(self, seeded: Seeded, deliverer: Deliverer, opts: Options):
        self.store = seeded.store
        self.deliverer = deliverer
        self.opts = opts


def log(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "users-api-py/1.0"
    sys_version = ""
    timeout = 60  # an idle keep-alive connection, or a stalled request, is closed after a minute
    app: App  # set on the subclass made in main()

    # --- plumbing ------------------------------------------------------------------------------------

    def handle_one_request(self):
        self.request_version = "HTTP/1.1"
        self.command = ""
        self._expect_continue = False
        self._linger = False
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.send_error(414, "the request line is too long")
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            try:
                self.serve()
            except (ConnectionError, TimeoutError, socket.timeout):
                raise
            except Exception:  # never a traceback to the client
                traceback.print_exc()
                self.close_connection = True
                self.send_problem(500, "INTERNAL", "Something failed on our side; the request may not have been applied.")
            self.wfile.flush()
        except (ConnectionError, TimeoutError, socket.timeout, OSError):
            self.close_connection = True

    def handle_expect_100(self):
        # Send "100 Continue" only when the body is actually going to be read (see read_body).
        self._expect_continue = True
        return True

    def send_error(self, code, message=None, explain=None):
        """Requests the HTTP parser refuses (bad request line, headers too long or too many): a problem 400
        whose issue is in the header, before authentication, and the connection is closed."""
        self.close_connection = True
        text = message or explain or "the request is not valid HTTP/1.1"
        self.send_problem(
            400, "VALIDATION_FAILED", f"The request could not be read as HTTP: {text}.",
            errors=[issue("header", "", text)], close=True,
        )

    def log_message(self, format, *args):
        if self.app.opts.log:
            log("%s - %s" % (self.address_string(), format % args))

    def write_response(self, status, body=b"", content_type=None, headers=(), close=False, head=False):
        lines = [f"HTTP/1.1 {status} {REASON.get(status, 'Unknown')}", f"Date: {formatdate(usegmt=True)}"]
        if content_type:
            lines.append(f"Content-Type: {content_type}")
            if self.app.opts.compress:
                lines.append("Vary: Accept-Encoding")
                if len(body) >= 256 and self.accepts_gzip():
                    # The same bytes for HEAD as for GET: HEAD's Content-Length is the one GET would send.
                    body = gzip.compress(body, mtime=0)
                    lines.append("Content-Encoding: gzip")
        if status != 204:
            lines.append(f"Content-Length: {len(body)}")
        for name, value in headers:
            lines.append(f"{name}: {value}")
        # Say so whenever this connection ends after the answer (the client asked, the body is left unread,
        # a framing error), so that no client sends its next request on a connection about to close.
        if close or self.close_connection or getattr(self, "_linger", False) or self.request_version != "HTTP/1.1":
            self.close_connection = True
            lines.append("Connection: close")
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        if not head and status != 204:
            data += body
        self.wfile.write(data)
        self.wfile.flush()
        if self.app.opts.log:
            log(f"{self.command} {self.path[:200]} -> {status}")

    def accepts_gzip(self) -> bool:
        headers = getattr(self, "headers", None)
        if headers is None:
            return False
        for value in headers.get_all("Accept-Encoding") or []:
            for item in value.split(","):
                coding, _, params = item.strip(" \t").partition(";")
                if coding.strip(" \t").lower() in ("gzip", "x-gzip"):
                    q = params.strip(" \t").lower()
                    return not re.fullmatch(r"q\s*=\s*0(\.0{0,3})?", q)
        return False

    def json_type(self, problem=False) -> str:
        base = "application/problem+json" if problem else "application/json"
        return base + "; charset=utf-8" if self.app.opts.charset else base

    def problem_body(self, status, code, detail, errors=None) -> bytes:
        opts = self.app.opts
        if opts.problem_type == "typed":
            slug, title = TYPED_PROBLEMS[code]
            body = {"type": PROBLEM_BASE + slug, "title": title}
        else:
            body = {"type": "about:blank", "title": REASON[status]}
        body.update({"status": status, "code": code, "detail": detail})
        if opts.extra_fields:
            body["instance"] = "urn:uuid:" + str(uuid.uuid4())
        if errors is not None:
            body["errors"] = errors
        return to_json_bytes(body)

    def send_problem(self, status, code, detail, errors=None, headers=(), close=False):
        body = self.problem_body(status, code, detail, errors)
        self.write_response(status, body, self.json_type(problem=True), headers, close,
                            head=self.command == "HEAD")

    def linger_close(self) -> None:
        """Close after an answer sent without reading the body: stop writing, then read and drop what the
        client is still sending for a moment, so that the close does not reset the connection before the
        client has read the answer."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(1.0)
            deadline = time.monotonic() + 2.0
            dropped = 0
            while time.monotonic() < deadline and dropped < 4 * 1024 * 1024:
                chunk = self.rfile.read1(65536)
                if not chunk:
                    break
                dropped += len(chunk)
        except OSError:
            pass

    # --- body framing ----------------------------------------------------------------------------------

    def framing(self):
        """('none', 0) | ('length', n) | ('chunked', None); raises Answer(400) for framing it cannot trust."""
        te_values = self.headers.get_all("Transfer-Encoding") or []
        cl_values = self.headers.get_all("Content-Length") or []
        if te_values and self.request_version == "HTTP/1.1":
            codings = [c.strip().lower() for v in te_values for c in v.split(",") if c.strip()]
            if codings != ["chunked"]:
                raise self.framing_error("/transfer-encoding", "only chunked is understood")
            if cl_values:
                self.close_connection = True  # RFC 9112 §6.3: Transfer-Encoding wins; do not reuse
            return ("chunked", None)
        if cl_values:
            parts = {p.strip() for v in cl_values for p in v.split(",")}
            if len(parts) != 1:
                raise self.framing_error("/content-length", "is given more than once with different values")
            value = parts.pop()
            if not _DIGITS.fullmatch(value) or len(value) > 18:
                raise self.framing_error("/content-length", "is not a number of bytes")
            n = int(value)
            return ("length", n) if n else ("none", 0)
        return ("none", 0)

    def framing_error(self, path, message) -> Answer:
        self.close_connection = True
        body = self.problem_body(400, "VALIDATION_FAILED", f"The request's framing cannot be trusted: {path[1:]} {message}.",
                                 [issue("header", path, message)])
        return Answer(400, body, [("Connection", "close")], self.json_type(problem=True))

    def read_body(self, framing):
        """The body, or None when it is over 16 KiB (reading no further than needed to know it)."""
        kind, n = framing
        if kind == "none":
            return b""
        if kind == "length" and n > MAX_BODY:
            return None
        if self._expect_continue:
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            self.wfile.flush()
            self._expect_continue = False
        if kind == "length":
            data = self.rfile.read(n)
            if len(data) < n:
                self.close_connection = True
                raise ConnectionError("the body ended early")
            return data
        return self.read_chunked()

    def read_chunked(self):
        body = bytearray()
        while True:
            line = self.rfile.readline(1026)
            if not line.endswith(b"\n"):
                raise self.framing_error("/transfer-encoding", "has a malformed chunk")
            size_text = line.split(b";", 1)[0].strip()
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,15}", size_text):
                raise self.framing_error("/transfer-encoding", "has a malformed chunk size")
            size = int(size_text, 16)
            if size == 0:
                break
            if len(body) + size > MAX_BODY:
                return None
            data = self.rfile.read(size)
            if len(data) < size:
                raise ConnectionError("the body ended early")
            body += data
            if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                raise self.framing_error("/transfer-encoding", "has a malformed chunk")
        for _ in range(100):  # trailer fields, ignored
            line = self.rfile.readline(8194)
            if line in (b"\r\n", b"\n", b""):
                break
        return bytes(body)

    def discard_body(self, framing) -> None:
        """Before answering without the body: drop a small one to keep the connection, else close after."""
        kind, n = framing
        if kind == "none":
            return
        if self._expect_continue:  # the client waits for us: it will not send the body
            self.close_connection = True
            return
        if kind == "length" and n <= MAX_BODY:
            data = self.rfile.read(n)
            if len(data) < n:
                self.close_connection = True
            return
        self._linger = True

    # --- the pipeline: docs/contract.md §3's order, on every route -------------------------------------

    def serve(self):
        self._linger = False
        method = self.command
        head = method == "HEAD"
        try:
            framing = self.framing()
            status, body, headers, ctype = self.pipeline(method, framing)
        except Answer as answer:
            status, body, headers, ctype = answer.status, answer.body, answer.headers, answer.content_type
        if body is None:
            body = b""
        self.write_response(status, body, ctype, headers, head=head)
        if self._linger:
            self.linger_close()

    def problem(self, status, code, detail, errors=None, headers=()) -> Answer:
        return Answer(status, self.problem_body(status, code, detail, errors), list(headers),
                      self.json_type(problem=True))

    def pipeline(self, method, framing):
        app = self.app
        target = self.path
        m = re.match(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*", target)
        if m:  # absolute-form request target
            target = target[m.end():] or "/"
        path, _, query = target.partition("?")

        # 1. authentication (§2)
        try:
            caller = self.authenticate()
        except Answer:
            self.discard_body(framing)
            raise

        # 2. route and method
        try:
            route, raw_id, allowed = self.route(path)
            if method == "OPTIONS":
                # OPTIONS is CORS's (§4); this backend answers it, once authenticated, with Allow.
                raise Answer(204, b"", [("Allow", self.allow_header(allowed))])
            if method not in allowed and not (method == "HEAD" and "GET" in allowed):
                raise self.problem(
                    405, "METHOD_NOT_ALLOWED",
                    f"{path} does not answer {method}; it answers {', '.join(allowed)}.",
                    headers=[("Allow", self.allow_header(allowed))],
                )
        except Answer:
            self.discard_body(framing)
            raise

        # 3. body size, on every route
        body = self.read_body(framing)
        if body is None:
            self._linger = True
            raise self.problem(413, "PAYLOAD_TOO_LARGE",
                               f"Request bodies are limited to {MAX_BODY} bytes (16 KiB); this one is larger.")

        get = method in ("GET", "HEAD")
        if route == "list":
            return self.list_users(caller, query)
        if route == "me":
            return self.ok({"data": caller.public(app.opts)})
        # route == "user"
        if method == "PATCH":
            return self.patch_user(caller, raw_id, body)
        if method == "DELETE":
            return self.delete_user(caller, raw_id)
        assert get
        return self.get_user(caller, raw_id)

    def ok(self, payload, status=200):
        return status, to_json_bytes(payload), [], self.json_type()

    # --- 1. authentication -------------------------------------------------------------------------------

    def authenticate(self) -> User:
        opts = self.app.opts
        values = self.headers.get_all("Authorization") or []
        refused_token = False
        token = None
        for value in values:
            value = value.strip(" \t")
            scheme, _, rest = value.partition(" ")
            if "\t" in scheme:
                scheme, _, more = scheme.partition("\t")
                rest = more + " " + rest if rest else more
            if scheme.isascii() and scheme.lower() == "bearer":
                candidate = rest.strip(" \t")
                if candidate:
                    refused_token = True
                    token = candidate
        if len(values) == 1 and token is not None:
            with self.app.store.lock:
                user_id = self.app.store.tokens.get(token)
                user = self.app.store.users.get(user_id) if user_id else None
                if user is not None and user.status == "ACTIVE":
                    return user
        # A repeated Authorization header is refused as a whole (our choice; §7 leaves it open).
        realm = 'realm="users"' if opts.realm else ""
        if refused_token:
            challenge = "Bearer " + (realm + ", " if realm else "") + 'error="invalid_token"'
            detail = "The access token is not valid (unknown, revoked, or its user is not active)."
        else:
            challenge = "Bearer" + (" " + realm if realm else "")
            detail = "Authenticate with the header Authorization: Bearer <token>."
        raise self.problem(401, "UNAUTHENTICATED", detail, headers=[("WWW-Authenticate", challenge)])

    # --- 2. routes ---------------------------------------------------------------------------------------

    def route(self, path):
        if path == "/api/users":
            return "list", None, ("GET",)
        if path == "/api/users/me":
            return "me", None, ("GET",)
        if path.startswith("/api/users/"):
            rest = path[len("/api/users/"):]
            if rest and "/" not in rest:
                return "user", rest, ("GET", "PATCH", "DELETE")
        # Outside /api too: this backend asks for a token first everywhere (§7 leaves paths outside /api open).
        raise self.problem(404, "NOT_FOUND", f"There is no route {path[:200]} in this API.")

    def allow_header(self, allowed) -> str:
        opts = self.app.opts
        order = ALLOW_ORDERS[opts.allow_order]
        methods = [m for m in order if m in allowed]
        if opts.allow_extras:
            methods += ["HEAD", "OPTIONS"]
        return ", ".join(methods)

    # --- 4. media type -----------------------------------------------------------------------------------

    def check_media_type(self):
        types = self.headers.get_all("Content-Type") or []
        if len(types) != 1:
            raise self.problem(415, "UNSUPPORTED_MEDIA_TYPE",
                               "Send the body with exactly one header Content-Type: application/json.")
        media = types[0].split(";", 1)[0].strip(" \t")
        if media.lower() != "application/json" or not media.isascii():
            raise self.problem(415, "UNSUPPORTED_MEDIA_TYPE",
                               "This endpoint reads application/json only.")
        for value in self.headers.get_all("Content-Encoding") or []:
            for coding in value.split(","):
                coding = coding.strip(" \t")
                if coding and coding.lower() != "identity":
                    raise self.problem(415, "UNSUPPORTED_MEDIA_TYPE",
                                       "Compressed or encoded bodies are not accepted; send plain JSON.")

    # --- 5. validation -----------------------------------------------------------------------------------

    def decode_id(self, raw_id) -> tuple[str | None, list]:
        user_id = strict_decode(raw_id, plus=False)
        if user_id is None:
            return None, [issue("path", "/id", "is not validly percent-encoded (or not UTF-8 once decoded)")]
        if len(user_id) > MAX_ID_LENGTH:
            return None, [issue("path", "/id", f"is longer than {MAX_ID_LENGTH} characters, so it cannot be an id")]
        return user_id, []

    def validation_failed(self, issues) -> Answer:
        count = len(issues)
        listed = issues[:MAX_LISTED_ISSUES]
        if count > MAX_LISTED_ISSUES:
            detail = (f"{count} problems were found in the request; errors lists the first "
                      f"{MAX_LISTED_ISSUES} of them.")
        else:
            first = listed[0]
            where = {"body": "the body", "query": "query parameter", "path": "path parameter",
                     "header": "header"}[first["in"]]
            at = f" {first['path']}" if first["path"] else ""
            detail = (f"{count} problem{'s' if count != 1 else ''} found in the request; "
                      f"first: {where}{at} {first['message']}.")
        return self.problem(400, "VALIDATION_FAILED", detail, listed)

    def parse_list_query(self, query: str):
        known = {"page": [], "limit": [], "role": [], "search": []}
        for part in query.split("&") if query else []:
            if not part:
                continue
            raw_name, _, raw_value = part.partition("=")
            name = lenient_decode(raw_name)
            if name in known:
                known[name].append(raw_value)
        issues = []
        values = {}
        for name, raws in known.items():
            if not raws:
                continue
            if len(raws) > 1:
                issues.append(issue("query", "/" + name, f"must be given once, not {len(raws)} times"))
                continue
            value = strict_decode(raws[0], plus=True)
            if value is None:
                issues.append(issue("query", "/" + name, "is not validly percent-encoded UTF-8"))
                continue
            values[name] = value
        page, limit, role, search = 1, DEFAULT_LIMIT, None, ""
        if "page" in values:
            page, problem = parse_integer(values["page"], 1, MAX_PAGE)
            if problem:
                issues.append(issue("query", "/page", problem))
        if "limit" in values:
            limit, problem = parse_integer(values["limit"], 1, MAX_LIMIT)
            if problem:
                issues.append(issue("query", "/limit", problem))
        if "role" in values:
            role = values["role"]
            if role not in ROLES:
                issues.append(issue("query", "/role", "must be one of " + ", ".join(ROLES) + " (case matters)"))
        if "search" in values:
            search = values["search"]
            if len(search) > MAX_SEARCH:
                issues.append(issue("query", "/search", f"must be at most {MAX_SEARCH} characters"))
        if issues:
            raise self.validation_failed(issues)
        return page, limit, role, search

    def parse_patch_body(self, body: bytes) -> tuple[dict | None, list]:
        whole = ""
        if not body:
            return None, [issue("body", whole, "is missing: send a JSON object with name, role or status")]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            return None, [issue("body", whole, f"is not UTF-8 (invalid byte at offset {error.start})")]
        try:
            value = parse_json(text)
        except RecursionError:
            return None, [issue("body", whole, "is nested too deeply to be read")]
        except ValueError:
            return None, [issue("body", whole, "is not well-formed JSON")]
        if not isinstance(value, dict):
            return None, [issue("body", whole, f"must be a JSON object, not {json_type(value)}")]
        issues = []
        known = [k for k in value if k in PATCH_KEYS]
        unknown = [k for k in value if k not in PATCH_KEYS]
        if not known and (not unknown or self.app.opts.count_required_issue):
            issues.append(issue("body", whole, "must hold at least one of name, role, status"))
        for key in unknown:
            issues.append(issue("body", pointer(key), "is not a field that can be changed (only name, role, status)"))
        patch = {}
        if "name" in value:
            name = value["name"]
            if not isinstance(name, str):
                issues.append(issue("body", "/name", f"must be a string, not {json_type(name)}"))
            else:
                trimmed = trim_es(name)
                if not trimmed:
                    issues.append(issue("body", "/name", "must not be empty once white space is trimmed"))
                elif len(trimmed) > MAX_NAME:
                    issues.append(issue("body", "/name",
                                        f"must be at most {MAX_NAME} characters once white space is trimmed "
                                        f"(it has {len(trimmed)})"))
                else:
                    patch["name"] = trimmed
        if "role" in value:
            role = value["role"]
            if role not in ROLES or not isinstance(role, str):
                issues.append(issue("body", "/role", "must be one of " + ", ".join(ROLES)))
            else:
                patch["role"] = role
        if "status" in value:
            status = value["status"]
            if status == "INVITED":
                issues.append(issue("body", "/status", "cannot be set to INVITED: users are created in that state"))
            elif status not in SETTABLE_STATUSES or not isinstance(status, str):
                issues.append(issue("body", "/status", "must be ACTIVE or SUSPENDED"))
            else:
                patch["status"] = status
        return (None if issues else patch), issues

    # --- the operations ----------------------------------------------------------------------------------

    def list_users(self, caller: User, query: str):
        opts = self.app.opts
        page, limit, role, search = self.parse_list_query(query)  # 5
        if caller.role == BOT:  # 7
            raise self.problem(403, "FORBIDDEN", "Bots may not list the members of the organization.")
        term = lower_case(search, opts)
        with self.app.store.lock:
            matching = [
                u for u in self.app.store.users.values()
                if u.organization_id == caller.organization_id
                and (role is None or u.role == role)
                and (not term or term in lower_case(u.name, opts) or term in lower_case(u.email, opts))
            ]
            matching.sort(key=lambda u: (u.created_ms, u.id))
            total = len(matching)
            start = (page - 1) * limit
            data = [u.public(opts) for u in matching[start:start + limit]] if start < total else []
        total_pages = -(-total // limit)
        meta = {"page": page, "limit": limit, "total": total, "totalPages": total_pages}
        payload = {"data": data, "meta": meta}
        if opts.extra_fields:
            meta["hasMore"] = page < total_pages
            payload["kind"] = "userList"
        return self.ok(payload)

    def find_target(self, caller: User, user_id: str) -> User:
        target = self.app.store.users.get(user_id)
        if target is None or target.organization_id != caller.organization_id:
            shown = user_id if len(user_id) <= 80 else user_id[:80] + "…"
            raise self.problem(404, "USER_NOT_FOUND", f"Your organization has no user with the id {shown!r}.")
        return target

    def get_user(self, caller: User, raw_id: str):
        user_id, issues = self.decode_id(raw_id)  # 5
        if issues:
            raise self.validation_failed(issues)
        with self.app.store.lock:
            target = self.find_target(caller, user_id)  # 6
            if caller.role == BOT and target.id != caller.id:  # 7
                raise self.problem(403, "FORBIDDEN", "A bot may read only itself.")
            payload = {"data": target.public(self.app.opts)}
        if self.app.opts.extra_fields:
            payload["kind"] = "user"
        return self.ok(payload)

    def patch_forbidden(self, caller: User, target: User, patch_keys) -> str | None:
        own = caller.id == target.id
        if own and ("role" in patch_keys or "status" in patch_keys):
            return "Nobody changes their own role or status."
        if "name" in patch_keys:
            if caller.role == ADMIN and target.role == OWNER:
                return "An admin may not change an owner."
            if caller.role in (VIEWER, BOT) and not own:
                return f"A {caller.role} may change only their own name."
        return None

    def patch_user(self, caller: User, raw_id: str, body: bytes):
        opts = self.app.opts
        self.check_media_type()  # 4
        user_id, issues = self.decode_id(raw_id)  # 5
        patch, body_issues = self.parse_patch_body(body)
        issues += body_issues
        if issues:
            raise self.validation_failed(issues)
        with self.app.store.lock:
            target = self.find_target(caller, user_id)  # 6
            keys = set(patch)  # 7
            reason = self.patch_forbidden(caller, target, keys)
            if reason is None and ("role" in keys or "status" in keys):
                if caller.role in (VIEWER, BOT):
                    reason = f"A {caller.role} may not change roles or statuses."
                elif caller.role == ADMIN and target.role == OWNER:
                    reason = "An admin may not change an owner."
                elif caller.role == ADMIN and patch.get("role") == OWNER:
                    reason = "An admin may not make anyone an owner."
            if reason:
                raise self.problem(403, "FORBIDDEN", reason)
            if "status" in patch and target.status == "INVITED":  # 8
                raise self.problem(409, "INVALID_TRANSITION",
                                   "An INVITED user's status does not change through this API; "
                                   "they become active by accepting their invitation.")
            changes = [k for k in ("status", "role", "name") if k in patch and getattr(target, k) != patch[k]]
            if changes:
                for key in changes:
                    setattr(target, key, patch[key])
                target.updated_ms = next_updated_at(target.updated_ms, opts)
                self.app.deliverer.publish(target.organization_id, target.id, "user.updated", {
                    "user": target.public(opts), "changes": changes, "actorId": caller.id,
                })
            payload = {"data": target.public(opts)}
        return self.ok(payload)

    def delete_user(self, caller: User, raw_id: str):
        opts = self.app.opts
        user_id, issues = self.decode_id(raw_id)  # 5
        if issues:
            raise self.validation_failed(issues)
        with self.app.store.lock:
            target = self.find_target(caller, user_id)  # 6
            if target.id == caller.id:  # 7
                raise self.problem(403, "FORBIDDEN", "Nobody deletes themselves.")
            if caller.role in (VIEWER, BOT):
                raise self.problem(403, "FORBIDDEN", f"A {caller.role} may not delete users.")
            if caller.role == ADMIN and target.role == OWNER:
                raise self.problem(403, "FORBIDDEN", "Only owners delete owners.")
            before = target.public(opts)
            del self.app.store.users[target.id]
            self.app.store.tokens.pop(target.token, None)
            self.app.deliverer.publish(target.organization_id, target.id, "user.deleted", {
                "user": before, "actorId": caller.id,
            })
        return 204, b"", [], None


# ---------------------------------------------------------------------------------------------------------
# Command line


def yes_no(value: str) -> bool:
    if value not in ("yes", "no"):
        raise argparse.ArgumentTypeError("yes or no")
    return value == "yes"


def parse_args(argv):
    p = argparse.ArgumentParser(description="A second implementation of the users API (stdlib only).")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=4555, help="0 takes a free port")
    p.add_argument("--target-out", metavar="FILE", help="write a target file (schemas/target.schema.json) once listening")
    p.add_argument("--webhook", action="append", default=[], metavar="URL",
                   help="subscribe URL to the events of organization A (repeatable)")
    p.add_argument("--webhook-secret", metavar="whsec_…", help="the signing secret (else a new one)")
    p.add_argument("--webhook-receiver", metavar="HOST:PORT",
                   help="put a webhooks block with this listen address (and the secret) into the target file")
    p.add_argument("--disposable", type=int, default=20, metavar="N",
                   help="ACTIVE CLIENT_VIEWER users of A for the suite to change and delete (default 20)")
    p.add_argument("--seed", type=int, default=20260105, help="seed of the generated ids and tokens")
    p.add_argument("--problem-type", choices=("typed", "blank"), default="typed")
    p.add_argument("--charset", type=yes_no, default=False, metavar="yes|no")
    p.add_argument("--realm", type=yes_no, default=True, metavar="yes|no")
    p.add_argument("--count-required-issue", type=yes_no, default=True, metavar="yes|no")
    p.add_argument("--allow-order", choices=tuple(ALLOW_ORDERS), default="patch-first")
    p.add_argument("--allow-extras", type=yes_no, default=True, metavar="yes|no",
                   help="name HEAD and OPTIONS in Allow too")
    p.add_argument("--timestamps", choices=("seconds", "millis"), default="seconds")
    p.add_argument("--extra-fields", type=yes_no, default=True, metavar="yes|no")
    p.add_argument("--retry-delays", default="1,2,4,8,16", metavar="S,S,…",
                   help="seconds before each retry of a failed delivery (at least 3 retries)")
    p.add_argument("--id-style", choices=("uuid", "odd"), default="uuid",
                   help="odd: ids a URL must percent-encode (space, /, %%, +, non-ASCII)")
    p.add_argument("--compress", type=yes_no, default=False, metavar="yes|no",
                   help="gzip answers of 256 bytes or more for clients that send Accept-Encoding: gzip")
    p.add_argument("--signatures", type=int, choices=(1, 2), default=1,
                   help="2: webhook-signature also holds a signature by a retired key, first")
    p.add_argument("--deliver-twice", type=yes_no, default=False, metavar="yes|no",
                   help="send every delivered event once more, with the same webhook-id (at least once)")
    p.add_argument("--lower", choices=("full", "simple"), default="full",
                   help="the lower-case mapping search applies: Unicode's full one or its simple one")
    p.add_argument("--log", action="store_true", help="one line per request and delivery on stderr")
    args = p.parse_args(argv)
    try:
        delays = tuple(float(x) for x in args.retry_delays.split(","))
    except ValueError:
        p.error("--retry-delays: numbers of seconds, comma-separated")
    if len(delays) < 3 or any(d <= 0 for d in delays):
        p.error("--retry-delays: at least 3 positive delays")
    if args.webhook_secret is not None:
        if not re.fullmatch(r"whsec_[A-Za-z0-9+/]{16,}={0,2}", args.webhook_secret):
            p.error("--webhook-secret: whsec_ followed by base64")
        try:
            base64.b64decode(args.webhook_secret[6:], validate=True)
        except ValueError:
            p.error("--webhook-secret: the part after whsec_ is not base64")
    for url in args.webhook:
        if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
            p.error(f"--webhook {url}: an http or https URL")
    if args.disposable < 0:
        p.error("--disposable: 0 or more")
    opts = Options(
        problem_type=args.problem_type, charset=args.charset, realm=args.realm,
        count_required_issue=args.count_required_issue, allow_order=args.allow_order,
        allow_extras=args.allow_extras, timestamps=args.timestamps, extra_fields=args.extra_fields,
        retry_delays=delays, log=args.log, id_style=args.id_style, compress=args.compress,
        signatures=args.signatures, deliver_twice=args.deliver_twice, lower=args.lower,
    )
    return args, opts


def write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None) -> int:
    args, opts = parse_args(sys.argv[1:] if argv is None else argv)
    secret = args.webhook_secret or "whsec_" + base64.b64encode(os.urandom(24)).decode("ascii")
    seeded = seed(opts, args.disposable, args.seed)
    deliverer = Deliverer(secret, {ORG_A: list(args.webhook)}, opts)
    app = App(seeded, deliverer, opts)

    handler = type("BoundHandler", (Handler,), {"app": app})
    server_cls = ThreadingHTTPServer
    if ":" in args.host:
        server_cls = type("Server6", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6})
    server_cls.daemon_threads = True
    try:
        server = server_cls((args.host, args.port), handler)
    except OSError as error:
        log(f"users_api.py: cannot listen on {args.host}:{args.port}: {error}")
        return 2
    port = server.server_address[1]
    shown_host = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(args.host, f"[{args.host}]" if ":" in args.host else args.host)
    base_url = f"http://{shown_host}:{port}"

    if args.target_out:
        target = {
            "$comment": "Written by test/support/second-implementation/users_api.py; the disposable users are fresh at each start.",
            "baseUrl": base_url,
            "actors": {name: {"token": token} for name, token in seeded.actors.items()},
            "inactive": {name: {"token": token} for name, token in seeded.inactive.items()},
            "disposable": seeded.disposable,
        }
        if args.webhook_receiver:
            target["webhooks"] = {"listen": args.webhook_receiver, "secret": secret}
        write_atomically(args.target_out, json.dumps(target, indent=2, ensure_ascii=False) + "\n")
    if not args.webhook_secret and args.webhook:
        log(f"webhook secret: {secret}")

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    print(f"listening on {base_url}", flush=True)
    while not stop.wait(0.5):
        pass
    server.shutdown()
    server.server_close()
    deliverer.stopping.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
