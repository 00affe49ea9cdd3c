"""The worker: one pass (fetch, apply, housekeeping, send) run by `pbem poll`, `pbem serve`
and `pbem tick`, with its run lock and IMAP leadership."""
