"""`pbem.entry`: the `pbem` process starts with the collector paused for its imports and ends
without the interpreter's teardown, with the command's exit status, its output flushed, its
``atexit`` functions run and its SQLite files closed; a running non-daemon thread is waited for."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _pbem(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbem", *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PBEM_DATABASE_URL": "sqlite:///game.db"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_exit_statuses_are_the_commands(tmp_path: Path) -> None:
    assert _pbem(tmp_path, "--help").returncode == 0
    wrong = _pbem(tmp_path, "no-such-command")
    assert wrong.returncode == 2 and "No such command 'no-such-command'" in wrong.stderr
    assert _pbem(tmp_path, "init").returncode == 0
    listed = _pbem(tmp_path, "games")
    assert listed.returncode == 0 and listed.stdout.strip() == "no games"
    missing = _pbem(tmp_path, "show", "12345")
    assert missing.returncode == 1 and "12345" in missing.stderr


def test_sqlite_files_are_closed_at_exit(tmp_path: Path) -> None:
    """The engines are disposed before the fast exit: SQLite checkpoints its WAL and removes
    the -wal and -shm files, as after the interpreter's own teardown."""
    assert _pbem(tmp_path, "init").returncode == 0
    assert _pbem(tmp_path, "games").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.db"]


def test_piped_output_is_flushed(tmp_path: Path) -> None:
    """Output still in the buffers at the fast exit reaches the pipe, in full."""
    done = _python(
        """
        import sys
        from pbem.entry import finish
        sys.stdout.write("x" * 100_000)
        print("last line", file=sys.stderr, end="")
        finish(0)
        """,
        tmp_path,
    )
    assert done.returncode == 0
    assert done.stdout == "x" * 100_000 and done.stderr == "last line"


def test_atexit_functions_run_and_teardown_is_skipped(tmp_path: Path) -> None:
    """`finish` runs the ``atexit`` functions (logging flushes there) but not the teardown
    that would finalise every module's objects one by one."""
    done = _python(
        """
        import atexit, logging
        from pathlib import Path
        from pbem.entry import finish

        class Finalised:
            def __del__(self):
                Path("finalised").write_text("yes")

        kept = Finalised()  # a module global: finalised only by the interpreter's teardown
        atexit.register(lambda: Path("atexit").write_text("ran"))
        logging.basicConfig(filename="log.txt")
        logging.getLogger("t").warning("kept")
        finish(0)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "atexit").read_text() == "ran"
    assert "kept" in (tmp_path / "log.txt").read_text()
    assert not (tmp_path / "finalised").exists()


def test_exit_codes_as_sys_exit_gives_them(tmp_path: Path) -> None:
    for code, status, err in (("None", 0, ""), ("75", 75, ""), ("'bad thing'", 1, "bad thing\n")):
        done = _python(f"from pbem.entry import finish\nfinish({code})", tmp_path)
        assert (done.returncode, done.stderr) == (status, err)


def test_a_running_thread_is_waited_for(tmp_path: Path) -> None:
    """A non-daemon thread still running is not cut off: the normal exit waits for it."""
    done = _python(
        """
        import threading, time
        from pathlib import Path
        from pbem.entry import finish

        def late():
            time.sleep(0.5)
            Path("thread").write_text("finished")

        threading.Thread(target=late).start()
        finish(3)
        """,
        tmp_path,
    )
    assert done.returncode == 3
    assert (tmp_path / "thread").read_text() == "finished"


def test_imports_run_with_the_collector_paused_then_frozen(tmp_path: Path) -> None:
    done = _python(
        """
        import gc
        seen = []
        gc.callbacks.append(lambda phase, info: seen.append(phase))
        from pbem.entry import start
        before = len(seen)
        cli = start()
        assert cli.name == "cli", cli.name
        assert gc.isenabled()
        assert gc.get_freeze_count() > 50_000, gc.get_freeze_count()
        assert len(seen) == before, seen[before:]
        print("ok")
        """,
        tmp_path,
    )
    assert done.stdout.strip() == "ok", done.stderr
