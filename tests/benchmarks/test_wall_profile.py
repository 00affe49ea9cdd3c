"""`benchmarks/wall_profile.py`'s summary of a py-spy raw profile: per process and thread, the
samples in seconds and the frames that took them (the profiling itself needs py-spy and the
mail stack: a command, not a test)."""

from __future__ import annotations

from benchmarks.wall_profile import summarise

POLL = 'process 10:"python probe.py out.json poll"'
CHILD = 'process 11:"python probe.py out.json poll"'
RAW = "\n".join(
    [
        f"{POLL};thread (10): MainThread;main (x.py:1);poll_once (pbem/service.py:9);"
        "_finish (pbem/outbox_process.py:136);_recv (multiprocessing/connection.py:395) 30",
        f"{POLL};thread (10): MainThread;main (x.py:1);apply (engine/api.py:5) 10",
        f"{POLL};{CHILD};thread (11): MainThread;_send_rows (pbem/outbox/send.py:1);"
        "_on_begin (pbem/store/db.py:156);do_execute (sqlalchemy/engine/default.py:1192) 20",
        f"{POLL};{CHILD};thread (12): asyncio_0;_worker (concurrent/futures/thread.py:81) 40",
        "garbage line without a count",
    ]
)


def test_samples_are_grouped_by_process_and_thread_with_their_project_frames() -> None:
    text = summarise(RAW, rate=10)
    sections = text.split("== ")[1:]
    heads = [s.splitlines()[0] for s in sections]
    assert heads == [
        "poll / MainThread: 4.00 s (40 samples)",
        "sending process / MainThread: 2.00 s (20 samples)",
        "sending process / asyncio_0: 4.00 s (40 samples)",
    ]
    poll = sections[0].splitlines()[1:]
    assert poll[0].split() == ["3.00", "s", "75.0", "%", "poll_once", ">", "_finish", "<-", "_recv"]
    assert poll[1].split()[-3:] == ["apply", "<-", "apply"]
    assert "_send_rows > _on_begin  <- do_execute" in sections[1]
    assert "(none)  <- _worker" in sections[2]
