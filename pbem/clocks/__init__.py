"""The game clock as a value: time controls and their spelling (`pbem.clocks.control`,
``--clock 72h+36h/240h``), the running clock, pure, with time passed in (`pbem.clocks.model`),
and the clock as a report shows it (`pbem.clocks.report`). What the server does with the clocks
lives in `pbem.games.timekeeping`.
"""
