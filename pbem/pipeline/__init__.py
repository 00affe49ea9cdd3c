"""The inbound mail pipeline: one mail, one database transaction, a fixed list of small stages.

`pbem.pipeline.runner.process_message` runs the stages of `pbem.pipeline.runner.STAGES` in this order, each a module
of `pbem.pipeline.stages` named after it (``filter-loops`` in ``filter_loops.py``):

    parse -> dedupe -> bounce -> filter-loops -> observer-mail -> identify-seat
    -> check-sender -> check-auth -> invitation -> load-game -> check-fresh -> extract
    -> check-repeat -> undo -> fair-play-words -> seat-commands -> orders -> meta-commands -> apply
    -> autoplay -> record -> table-talk -> bot-moves -> clock -> report -> observers

The first stages decide whether the mail is ours to act on (nothing is answered before the
reply key and the sender are checked: no backscatter); ``extract`` to ``apply`` read the
player's lines and apply them all or nothing; ``autoplay`` to ``observers`` record the moves,
let the server's and the bots' moves follow, run the clocks and queue the reports.

A stage stops the mail by raising one of the exceptions of `pbem.pipeline.base` (ignored,
rejected with an answer, answered, held); any other exception rolls the mail back and
quarantines it with its stage (`pbem.pipeline.runner`).
"""
