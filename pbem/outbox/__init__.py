"""The outbox: every mail the server writes, queued as a row with the change that caused it.

`pbem.outbox.parts` stores the pictures and files a mail carries, `pbem.outbox.compose` makes
a row's bytes, `pbem.outbox.claims` names who claimed a row (and whether it is dead), and
`pbem.outbox.send` claims due rows, sends each over SMTP and marks it (at-least-once, with a
stable Message-ID).
"""
