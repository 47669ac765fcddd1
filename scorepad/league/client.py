"""The club's side of the wire: one night sent to the league's ``POST /league/publish``; a claim
code asked of its ``POST /league/claim-code`` for one of the club's players.

Over HTTPS, the league's certificate verified (the system's authorities, or ``ca``: a private
authority's certificate file); plain ``http://`` only to this computer (a league on the same
machine, or a test), never over a network.  Each answer is one of three: the night was taken
(:class:`Sent`), the league refused it (:class:`Refusal`, with the league's sentence; ``final``
when sending it again cannot help), or the league could not be reached (:class:`Unreachable`):
the outbox keeps the night for the next try.
"""

from __future__ import annotations

import ipaddress
import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from ..core.i18n import N_, Msg, ScorepadError, msg

PUBLISH = "/league/publish"
CLAIM_CODE = "/league/claim-code"
#: Seconds a publication may take (a night is at most a few hundred kB).
TIMEOUT = 60.0
#: The answers a league gives when trying again later may help.
TRY_AGAIN = frozenset({408, 429, 500, 502, 503, 504})


class LeagueAddressRefused(ScorepadError):
    """A league address the club cannot publish to."""


def league_base(url: str) -> str:
    """The league's address as the club keeps it (``https://host[:port][/path]``, no trailing
    slash); plain http only to a loopback host."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host or parts.query or parts.fragment:
        raise LeagueAddressRefused(
            msg(N_("{url} is not a league's address: give https://HOST[:PORT]"), url=url)
        )
    if parts.scheme == "http" and not _loopback(host):
        raise LeagueAddressRefused(
            msg(
                N_("{url}: a league is reached over https (plain http only on this computer)"),
                url=url,
            )
        )
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Sent:
    night: str
    version: int
    new: bool


@dataclass(frozen=True, slots=True)
class Refusal:
    said: str  # the league's sentence, in the language asked for
    final: bool  # True: the night itself is refused (sending it again gives the same answer)


@dataclass(frozen=True, slots=True)
class Unreachable:
    reason: Msg


Answer = Sent | Refusal | Unreachable


def send_night(
    base: str,
    secret: str,
    document: str,
    change: str | None,
    *,
    lang: str = "en",
    ca: str | None = None,
    timeout: float = TIMEOUT,
) -> Answer:
    """One night to the league at ``base`` (:func:`league_base`'s form)."""
    url = base + PUBLISH + ("?change=" + quote(change, safe="") if change else "")
    got = _post(url, secret, document.encode("utf-8"), lang=lang, ca=ca, timeout=timeout)
    if not isinstance(got, dict):
        return got
    return Sent(str(got["night"]), int(got["version"]), bool(got["new"]))


@dataclass(frozen=True, slots=True)
class Issued:
    """A claim code the league gave for a club's player (``name``: as the league knows him)."""

    code: str
    name: str


def ask_claim_code(
    base: str,
    secret: str,
    player: str,
    *,
    lang: str = "en",
    ca: str | None = None,
    timeout: float = TIMEOUT,
) -> Issued | Refusal | Unreachable:
    """A claim code for the club's player ``player`` (his stable id in the club's nights)."""
    body = json.dumps({"player": player}).encode()
    got = _post(base + CLAIM_CODE, secret, body, lang=lang, ca=ca, timeout=timeout)
    if not isinstance(got, dict):
        return got
    return Issued(str(got["code"]), str(got["name"]))


def _post(
    url: str, secret: str, body: bytes, *, lang: str, ca: str | None, timeout: float
) -> dict[str, Any] | Refusal | Unreachable:
    """The league's JSON answer to one request; its refusal, or why it could not be reached."""
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {secret}",
            "Content-Type": "application/json; charset=utf-8",
            "Accept-Language": lang.replace("_", "-"),
        },
    )
    context = ssl.create_default_context(cafile=ca) if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as answer:
            data = json.loads(answer.read(65536))
            if not isinstance(data, dict):
                raise ValueError(data)
            return data
    except urllib.error.HTTPError as exc:
        try:
            said = str(json.loads(exc.read(65536))["refused"])
        except (ValueError, KeyError, TypeError, OSError):
            return Unreachable(msg(N_("the league answered {status}"), status=exc.code))
        if exc.code in TRY_AGAIN:
            return Unreachable(msg(N_("the league says: {said}"), said=said))
        # A wrong or revoked secret is not the night's fault: it waits for a new secret.
        return Refusal(said, final=exc.code != 401)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        if isinstance(reason, ssl.SSLCertVerificationError):
            return Unreachable(
                msg(
                    N_("the league's certificate is not trusted: {reason}"),
                    reason=str(reason.verify_message),
                )
            )
        return Unreachable(msg(N_("the league cannot be reached: {reason}"), reason=str(reason)))


__all__ = [
    "Answer",
    "Issued",
    "LeagueAddressRefused",
    "Refusal",
    "Sent",
    "Unreachable",
    "ask_claim_code",
    "league_base",
    "send_night",
]
