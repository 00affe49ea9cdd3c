"""Game clocks and seats: time controls, the pure clock model, the tick service, seat changes.

- `pbem.clocks.control`: time controls and their spelling (``--clock 72h+36h/240h``).
- `pbem.clocks.model`: the running clock, pure (time passed in).
- `pbem.clocks.autopilot`: the one function that picks a timed-out side's move.
- `pbem.clocks.service`: the database side — starting clocks, hand-overs, `tick`.
- `pbem.clocks.seats`: resign, vacation, addresses and seat replacement.
"""
