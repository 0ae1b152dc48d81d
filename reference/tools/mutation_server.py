"""The mutation tester's fork server (:mod:`reference.tools.mutate`): one per worker copy.

It imports pytest, Hypothesis, mpmath and python-flint once and forks a fresh child per
pytest run; ``reference`` itself is never imported there, so each child imports the
mutated copy (the copy's root is on ``PYTHONPATH``).  POSIX only (``os.fork``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: The fork server: one JSON request a line (pytest arguments, timeout), one exit code a
#: line back (``null``: timed out, the child's process group killed).
_SERVER = r"""
import json, os, sys, threading, time
import hypothesis, mpmath, pytest
for name in ("flint", "pytest_cov", "pytest_benchmark.plugin"):
    try:
        __import__(name)
    except ImportError:
        pass
for line in sys.stdin:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.setsid()
            server = os.getppid()

            def orphaned():  # the tool was killed: end this run, not leave it behind
                while os.getppid() == server:
                    time.sleep(1)
                os._exit(3)

            threading.Thread(target=orphaned, daemon=True).start()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            code = int(pytest.main(req["args"]))
        finally:
            os._exit(code)
    deadline = None if req["timeout"] is None else time.monotonic() + req["timeout"]
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        if deadline is not None and time.monotonic() > deadline:
            os.killpg(pid, 9)
            os.waitpid(pid, 0)
            code = None
            break
        time.sleep(0.02)
    print(json.dumps(code), flush=True)
"""


def env(copy_root: Path, extra_env: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(copy_root), "HYPOTHESIS_PROFILE": "mutation",
           **(extra_env or {})}
    env.pop("CI", None)
    return env


class Server:
    """A fork server for one copy (POSIX); :meth:`run` gives pytest's exit code, or None
    on timeout."""

    def __init__(self, copy_root: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVER], cwd=copy_root,
                                     env=env(copy_root), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def run(self, args: list[str], timeout: float | None) -> int | None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"args": args, "timeout": timeout}) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError("the mutation fork server died")
        code: int | None = json.loads(answer)
        return code

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


__all__ = ["Server", "env"]
