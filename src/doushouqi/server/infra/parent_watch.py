"""Worker processes that end when the server process dies, however it dies.

A worker of a ``ProcessPoolExecutor`` waits for jobs on a pipe whose both ends it holds, so it
never sees end-of-file when the server is killed (``kill -9``, out of memory): it would wait
forever under PID 1, about 200 MB a piece, and with it multiprocessing's resource tracker,
which ends only when every holder of its pipe has. :func:`watch_parent` starts a thread in the
worker that notices that its parent is gone and ends the process; nothing in the server has to
run for it.

Why not ``prctl(PR_SET_PDEATHSIG)``: that signal comes when the *thread* that started the
worker ends, not the process. The executor starts workers from whichever thread submits a job
(the event loop's; in the tests' servers that is a thread that ends before the process does),
so it could kill the workers of a server that still runs. The parent pid changes only when the
parent process is gone (the worker is handed to init or to a subreaper). The engine searches
with the GIL released (numba ``nogil``), so the thread looks even while a search runs.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["POLL_INTERVAL", "watch_parent"]

#: Seconds between two looks at the parent: how long an orphaned worker may live on.
POLL_INTERVAL = 0.25


def watch_parent(parent_pid: int, interval: float = POLL_INTERVAL) -> threading.Thread:
    """End this process as soon as ``parent_pid`` is no longer its parent.

    Pass the pid the parent had when it started this process (``os.getpid()`` there), not
    ``os.getppid()`` read here, which already names init when the parent died while this
    process was starting. The end is ``os._exit``: no clean-up, as nobody is left to answer.
    """

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(1)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread
