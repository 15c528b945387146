"""Run a bot module in its own process against the fake, through the launcher: the one way the sandbox, the
tests and the benchmarks start a bot."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path


class BotProcess:
    """A ``python -m fakediscord.launch ... -- module args`` child whose output goes to ``log_path``."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def log(self) -> str:
        """Everything the process wrote to stdout and stderr so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal that ended it)."""
        return self.process.returncode

    async def stop(self, timeout: float = 10.0, signum: int = signal.SIGINT) -> int:
        """`signum` first (SIGINT: ``Client.run()`` then closes cleanly), SIGKILL after ``timeout``; the code."""
        if self.process.returncode is None:
            self.process.send_signal(signum)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        return self.process.returncode  # type: ignore[return-value]

    async def kill(self) -> int:
        """SIGKILL at once, as a crash would."""
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        return self.process.returncode  # type: ignore[return-value]

    def assert_clean_log(self) -> None:
        """Fail if the bot logged an ERROR or printed a traceback (with the log in the message)."""
        log = self.log
        if "ERROR" in log or "Traceback" in log:
            raise AssertionError(f"bot process logged errors:\n{log}")


async def launch_module(
    base_url: str,
    gateway_url: str,
    module: str,
    *args: str,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    extra_pythonpath: list[Path] | None = None,
    cpus: frozenset[int] = frozenset(),
    inherit: bool = True,
) -> BotProcess:
    """Start ``python -m module *args`` pointed at the fake; ``env`` adds to the environment (with ``inherit``)
    or is the whole of it; ``cpus``: the cores the process (and the processes it starts) may run on (all of them
    if empty).

    Output is appended to a file rather than a pipe, so a chatty bot can never block on a full pipe buffer and a
    bot started again keeps one log.
    """
    full_env = {**os.environ, **(env or {})} if inherit else dict(env or {})
    if extra_pythonpath:
        paths = [str(p) for p in extra_pythonpath] + [full_env.get("PYTHONPATH", "")]
        full_env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    log_path.parent.mkdir(parents=True, exist_ok=True)

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, set(cpus))

    with log_path.open("ab") as log_file:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fakediscord.launch",
            "--api",
            base_url,
            "--gateway",
            gateway_url,
            "--",
            module,
            *args,
            cwd=cwd,
            env=full_env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file,
            stderr=asyncio.subprocess.STDOUT,
            preexec_fn=pin if cpus else None,
        )
    return BotProcess(process, log_path)
