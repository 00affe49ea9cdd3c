"""pymap (dict backend) as an in-process IMAP server for :mod:`pbem.mail.embedded`.

pymap's own CLI serves one demo user with a hashed password; here a small :class:`AnyLogin`
accepts any user name and password (loopback demo only) and keys each mailbox by the login
name's base address, lower-cased (``game+key@x`` logs into ``game@x``). :func:`start_imap`
must run inside the event loop that will serve the connections, because pymap keeps its
concurrency subsystem in a context variable.
"""

from __future__ import annotations

import asyncio
from argparse import Namespace
from collections.abc import Callable, Coroutine
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from typing import Any

from proxyprotocol.reader import ProxyProtocolReader
from pymap.backend.dict import Config, Identity, Login
from pymap.backend.dict.filter import FilterSet
from pymap.backend.dict.mailbox import MailboxSet
from pymap.imap import IMAPServer
from pymap.parsing.message import AppendMessage
from pymap.user import UserMetadata
from pysasl.creds.server import ServerCredentials

Deliver = Callable[[str, bytes], Coroutine[Any, Any, None]]


def mailbox_name(address: str) -> str:
    """The mailbox an address logs into / receives in: lower-case, without ``+detail``."""
    local, _, domain = address.strip().lower().rpartition("@")
    if not local:
        return address.strip().lower()
    return f"{local.split('+', 1)[0]}@{domain}"


class EmbeddedConfig(Config):
    """pymap config without TLS, DNS lookups or login delays."""

    @property
    def greeting(self) -> bytes:
        return b"pbem embedded IMAP ready"


class AnyLogin(Login):
    """Any user name and password log in; the mailbox is created on first use."""

    async def authenticate(self, credentials: ServerCredentials) -> Identity:
        name = mailbox_name(credentials.authcid)
        if name not in self.users_dict:
            self.users_dict[name] = UserMetadata(self.config, name)
        return Identity(name, self, None, frozenset())

    async def authorize(self, authenticated: Any, authzid: str) -> Identity:
        return Identity(mailbox_name(authzid), self, None, frozenset())


def make_config(host: str, port: int) -> EmbeddedConfig:
    args = Namespace(
        passlib_cfg=None,
        proxy_protocol=None,
        inherited_sockets=None,
        debug=False,
        tls=False,
        cert=None,
        key=None,
    )
    return EmbeddedConfig(
        args,
        host=host,
        port=port,
        tls_enabled=False,
        invalid_user_sleep=0.0,
        reject_dnsbl=False,
        demo_data=False,
        demo_user="demo@localhost",
        demo_password="unused",
        bad_command_limit=None,
    )


async def start_imap(stack: AsyncExitStack, host: str, port: int) -> tuple[int, Deliver]:
    """Start serving on (*host*, *port*) until *stack* closes; return the port and a
    coroutine function ``deliver(address, raw)`` that appends to that address's INBOX."""
    config = make_config(host, port)
    config.apply_context()
    login = AnyLogin(config)
    imap_server = IMAPServer(login, config)
    callback = ProxyProtocolReader(config.proxy_protocol).get_callback(imap_server)
    server = await asyncio.start_server(callback, host=host, port=port)
    await stack.enter_async_context(server)
    task = asyncio.create_task(server.serve_forever())
    stack.callback(task.cancel)
    actual_port = int(server.sockets[0].getsockname()[1])

    async def deliver(address: str, raw: bytes) -> None:
        name = mailbox_name(address)
        if name not in login.users_dict:
            login.users_dict[name] = UserMetadata(config, name)
        mailbox_set, _ = config.set_cache.setdefault(name, (MailboxSet(), FilterSet()))
        inbox = await mailbox_set.get_mailbox("INBOX")
        message = AppendMessage(raw, datetime.now(UTC), frozenset())
        await inbox.append(message, recent=True)

    return actual_port, deliver
