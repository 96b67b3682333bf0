"""A CPU-time sampler for the bench's server (``bench/server_load.py --cpu-profile FILE``).

Put on the server's ``PYTHONPATH`` (after the code measured), Python imports it at start-up.
With ``DOUSHOUQI_CPU_SAMPLES`` set to a file, SIGUSR1 starts sampling and SIGUSR2 stops it and
writes the stacks there, one line each (``frame;frame;... count``, as flame graph tools read).

The timer is ``ITIMER_PROF``, which counts the process's CPU time (user and system): a sample
is taken for each 2 ms of CPU used, never while the process waits or is descheduled. py-spy,
without ``--gil`` and ``--idle``, counts a thread that is runnable but not running (a ``write``
that wakes its peer on a busy machine) as much as one on the CPU. Python runs the handler at
its next check (a call, a loop's jump, a return from a C function called from Python), so
time in C is counted where Python resumes: a C call made from Python at the line that called
it, the event loop's own C work (uvloop) at the first Python function it runs next.
"""

from __future__ import annotations

import collections
import os
import signal
from types import FrameType

# ``{node}`` in the name is the node's name (bench/cluster_load.py samples three nodes).
_OUT = os.environ.get("DOUSHOUQI_CPU_SAMPLES", "").replace(
    "{node}", os.environ.get("DOUSHOUQI_NODE_NAME", "")
)
_INTERVAL = 0.002
_counts: collections.Counter[str] = collections.Counter()


def _name(frame: FrameType) -> str:
    code = frame.f_code
    path = code.co_filename
    for marker in ("/site-packages/", "/src/", "/lib/python3"):
        if marker in path:
            path = path.rsplit(marker, 1)[1]
            break
    return f"{code.co_qualname} ({path}:{frame.f_lineno})"


def _sample(signum: int, frame: FrameType | None) -> None:
    stack = []
    while frame is not None:
        stack.append(_name(frame))
        frame = frame.f_back
    _counts[";".join(reversed(stack))] += 1


def _start(signum: int, frame: FrameType | None) -> None:
    _counts.clear()
    signal.setitimer(signal.ITIMER_PROF, _INTERVAL, _INTERVAL)


def _stop(signum: int, frame: FrameType | None) -> None:
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    assert _OUT is not None
    with open(_OUT, "w", encoding="utf-8") as out:
        out.writelines(f"{stack} {count}\n" for stack, count in _counts.items())


if _OUT:
    signal.signal(signal.SIGPROF, _sample)
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
