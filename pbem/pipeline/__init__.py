"""Inbound mail pipeline: small named handlers run in order, one transaction per mail.

    parse -> dedupe -> bounce -> filter-loops -> identify-seat -> check-sender -> load-game
          -> check-fresh -> extract -> seat-commands -> orders -> meta-commands -> apply
          -> autoplay -> record -> bot-moves -> clock -> report

See `pbem.pipeline.base` for the control-flow exceptions and
`pbem.pipeline.runner.process_message` for the transaction and quarantine.
"""

from pbem.pipeline.base import (
    HANDLERS,
    Answered,
    Context,
    IgnoreMessage,
    RejectMessage,
    StopPipeline,
    handler,
)
from pbem.pipeline.runner import PIPELINE, Outcome, process_message

__all__ = [
    "HANDLERS",
    "PIPELINE",
    "Answered",
    "Context",
    "IgnoreMessage",
    "Outcome",
    "RejectMessage",
    "StopPipeline",
    "handler",
    "process_message",
]
