"""Play-by-email turn server for *1960: The Making of the President*.

Built in wings, each importing only from those below it (docs/ARCHITECTURE.md):
`pbem.store` (tables, database, migrations), `pbem.mail` (IMAP, SMTP, MIME), `pbem.clocks`
(the clock as a value), `pbem.reports` (what a player reads), `pbem.outbox` (mail out),
`pbem.games` (the games' policies), `pbem.pipeline` (the inbound stages), `pbem.worker` (one
worker pass: poll, serve, tick) and `pbem.cli` (the `pbem` command).
"""

__version__ = "0.1.0"
