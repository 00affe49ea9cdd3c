"""Mail out: a rendered report queued in the game's transaction, its bytes composed, and
sent over SMTP with claims, retries and backoff."""
