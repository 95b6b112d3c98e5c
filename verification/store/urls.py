"""What a stored file may hold of a server's URL: no ``user:password@``, query or fragment.

The providers write a URL into a manifest without its credentials; a manifest read back
(anyone may have edited it) is stripped again, so no report copies a secret from it.
"""

from __future__ import annotations

import base64
import ipaddress
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

__all__ = [
    "on_this_machine",
    "same_server",
    "server_of",
    "url_credentials",
    "without_credentials",
    "without_url_credentials",
]


def without_credentials(url: str | None) -> str | None:
    """``url`` with any ``user:password@``, query and fragment removed: what manifests,
    reports and messages may show."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<unparsable URL>"
    host = parts.hostname or ""
    netloc = f"{host}:{port}" if port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def server_of(url: str | None) -> str | None:
    """The server a base URL names, as the response cache keys and groups it: ``url``
    without credentials and without a path's trailing slash (an SDK adds one to what it was
    given; Ollama's docs write ``/v1/`` where most write ``/v1``).

    Examples
    --------
    >>> server_of("http://user:pw@localhost:11434/v1/") == server_of("http://localhost:11434/v1")
    True
    """
    stripped = without_credentials(url)
    return stripped.rstrip("/") if stripped else stripped


def same_server(one: str | None, other: str | None) -> bool:
    """Whether two base URLs name the same server: equal but for credentials and a path's
    trailing slash."""
    return server_of(one) == server_of(other)


def on_this_machine(url: str) -> bool:
    """Whether ``url`` names a server on this machine (``localhost`` or a loopback
    address): one a key sent to stays here."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if host is None:
        return False
    if host == "localhost":  # not *.localhost: a resolver may send a name like that anywhere
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_credentials(url: str | None) -> list[str]:
    """The user name and password a URL carries, if any, in every form they leave in (what
    :func:`redact` hides): as the URL writes them, percent-decoded, and as the HTTP client
    sends them, ``base64(user:password)`` of a Basic ``Authorization`` header (a server or
    a proxy that echoes its headers says that back: hunt pp)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:
        return []
    if not user and not password:
        return []
    decoded = unquote(user or ""), unquote(password or "")
    basic = [
        base64.b64encode(f"{name}:{word}".encode(errors="replace")).decode()
        for name, word in {(user or "", password or ""), decoded}
    ]
    return list(dict.fromkeys(p for p in (user, password, *decoded, *basic) if p))


def without_url_credentials(value: Any) -> Any:
    """``value`` (JSON data) with every string that is a URL (``scheme://host...``), at any
    depth, replaced by :func:`without_credentials` of it; the rest as it was."""
    if isinstance(value, dict):
        return {key: without_url_credentials(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_url_credentials(item) for item in value]
    if isinstance(value, str) and "://" in value:
        return without_credentials(value)
    return value
