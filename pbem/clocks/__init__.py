"""Game clocks and seats: time controls, the pure clock model, the tick service, seat changes.

- `pbem.clocks.control`: time controls and their spelling (``--clock 72h+36h/240h``).
- `pbem.clocks.model`: the running clock, pure (time passed in).
- `pbem.clocks.autopilot`: the one function that picks a timed-out side's move.
- `pbem.clocks.service`: `tick` and what is due (reminders, out-of-time notices); the public
  face of the database side, re-exporting:
  - `pbem.clocks.records`: the clock on the game row, game-log events, notices, site default.
  - `pbem.clocks.moves`: hand-overs after a move, sync with the seats, ending a game.
  - `pbem.clocks.outage`: the outage guard and `TickReport`.
  - `pbem.clocks.expiry`: forfeit, claim and autopilot when a clock and its grace are out.
  - `pbem.clocks.display`: the clocks as text for `pbem games`, `pbem show`, `pbem log`.
- `pbem.clocks.seats`: resign, vacation, addresses and seat replacement.
"""
