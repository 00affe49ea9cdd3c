"""Game clocks and seats: time controls, the pure clock model, the tick service, seat changes.

- `pbem.clocks.control`: time controls and their spelling (``--clock 72h+36h/240h``).
- `pbem.clocks.model`: the running clock, pure (time passed in).
- `pbem.games.timekeeping.autopilot`: the one function that picks a timed-out side's move.
- `pbem.games.timekeeping.tick`: `tick` and what is due (reminders, out-of-time notices).
- The database side, each imported from its home:
  - `pbem.games.timekeeping.records`: the clock on the game row, game-log events, notices, site default.
  - `pbem.games.timekeeping.moves`: hand-overs after a move, sync with the seats, ending a game.
  - `pbem.games.timekeeping.outage`: the outage guard and `TickReport`.
  - `pbem.games.timekeeping.expiry`: forfeit, claim and autopilot when a clock and its grace are out.
  - `pbem.games.timekeeping.display`: the clocks as text for `pbem games`, `pbem show`, `pbem log`.
- `pbem.games.seats`: resign, vacation, addresses and seat replacement.
"""
