"""The mail worker: one pass (`pbem.worker.worker_pass`) and what runs it.

`pbem poll` runs the pass once, `pbem tick` runs it without fetching, `pbem serve` runs it in a
loop woken by IMAP IDLE (`pbem.worker.serve`). The run lock (`pbem.worker.lock`), the IMAP
leader of several PostgreSQL workers (`pbem.worker.leader`) and the hand-over of mail between
them (`pbem.worker.handover`) live here too.
"""
