"""A CPU-time budget for reading one mail before its sender is known.

Parsing MIME and turning HTML into text run before anything tells a player's mail from a
stranger's, so a stranger's bytes decide how long they take. Size and structure caps bound
most of it (`pbem.mail.parse`), but some inputs stay slow (the stdlib ``html.parser`` takes
about a minute over 200 KB of unclosed ``<a<a<a``). ``with cpu_budget(seconds):`` bounds it:

- in the main thread (`pbem poll`, `pbem serve`) a ``SIGVTALRM`` interval timer on the
  process's CPU time interrupts whatever Python code is running, the parser's included;
- in every thread, the loops we own (`pbem.mail.htmltext`, the MIME walk) call `check`,
  which compares this thread's CPU time with the deadline.

Either raises `OverBudget`; the pipeline quarantines the mail with that reason and the
worker goes on with the next one. CPU time, not wall time: a busy machine does not make a
legitimate mail over budget.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType

__all__ = ["OverBudget", "check", "cpu_budget"]

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("pbem_cpu_budget", default=None)


class OverBudget(Exception):
    """Reading this mail used more CPU time than the budget allows."""


def check() -> None:
    """Raise `OverBudget` if the current budget (if any) is spent; cheap, call it in loops."""
    budget = _DEADLINE.get()
    if budget is not None and time.thread_time() > budget[0]:
        raise OverBudget(f"reading the mail used more than {budget[1]:g} s of CPU time")


def _on_timer(signum: int, frame: FrameType | None) -> None:
    budget = _DEADLINE.get()
    if budget is not None:
        raise OverBudget(f"reading the mail used more than {budget[1]:g} s of CPU time")


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Run the block with at most ``seconds`` of CPU time (0 or less: no limit)."""
    if seconds <= 0:
        yield
        return
    token = _DEADLINE.set((time.thread_time() + seconds, seconds))
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous = None
    if timer:
        previous = signal.signal(signal.SIGVTALRM, _on_timer)
        signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, previous)
        _DEADLINE.reset(token)
