"""Which servers a resume may take from a manifest without the user's word: only one on
this machine (a manifest is a file anyone may edit, and the API key goes to its server)."""

from __future__ import annotations

import pytest

from verification.store.urls import on_this_machine, same_server


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/v1",
        "http://localhost:11434/v1",
        "http://[::1]:8080",
        "http://127.9.9.9",
    ],
)
def test_a_loopback_server_is_on_this_machine(url: str) -> None:
    assert on_this_machine(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com/v1",
        "http://attacker.localhost/v1",  # a resolver may send such a name anywhere
        "http://127.0.0.1.example.com/v1",
        "http://0.0.0.0:8000",
        "http://10.0.0.5/v1",
        "not a url",
        "http://[::1/v1",
        "",
    ],
)
def test_any_other_server_is_not(url: str) -> None:
    assert not on_this_machine(url)


def test_the_same_server_is_the_same_without_credentials_or_a_trailing_slash() -> None:
    assert same_server("http://u:p@127.0.0.1:9/v1/", "http://127.0.0.1:9/v1")
    assert not same_server("http://127.0.0.1:9/v1", "http://127.0.0.1:10/v1")
