"""Play-by-email turn server for *1960: The Making of the President*.

`pbem.service` holds the operations (new game, poll, drain outbox, replay, ...),
`pbem.pipeline` the inbound-mail stages, `pbem.store.models`/`pbem.store.db` the
SQLModel persistence, `pbem.mail` the IMAP/SMTP/MIME layer and `pbem.cli` the
`pbem` command.
"""

__version__ = "0.1.0"
