"""Fair play anyone can check: invitations, a committed seed mixed with player entropy, the
reveal with a game export at the end, `pbem verify`, and observers of the public view.

`verify` is the scheme's home and a standalone verifier (standard library + ``engine`` only);
`games` creates committed games and answers invitations; `export` builds the game export and
the reveal; `observers` follows games for onlookers; `mails` renders and queues these mails;
`handlers` plugs all of it into the mail pipeline. Nothing here is imported by ``engine``.
"""
