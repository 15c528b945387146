"""Catch ERROR records of the ``discord`` logger: discord.py only logs exceptions raised in commands,
views and modals, so without this a broken handler lets a test pass."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager


class DiscordErrors(logging.Handler):
    """A logging handler that keeps ERROR (and worse) records; some can be declared expected."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.expected: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def expect(self, fragment: str) -> None:
        """Allow records whose message, traceback or exception text contains ``fragment``."""
        self.expected.append(fragment)

    @staticmethod
    def _text(record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f"\n{type(error).__name__}: {error}"
            cause = error.__cause__ or error.__context__
            if cause is not None:
                text += f"\ncaused by {type(cause).__name__}: {cause}"
        return text

    def unexpected(self) -> list[str]:
        """Texts of the records no :meth:`expect` fragment covers."""
        texts = [self._text(r) for r in self.records]
        return [t for t in texts if not any(f in t for f in self.expected)]

    async def wait_for_record(self, timeout: float = 5.0) -> logging.LogRecord:
        """Wait until something was logged at ERROR and return the first record.

        Logging has no async hook, hence the short poll.
        """
        async with asyncio.timeout(timeout):
            while not self.records:
                await asyncio.sleep(0.01)
        return self.records[0]

    def check(self) -> None:
        """Raise ``AssertionError`` listing unexpected records."""
        unexpected = self.unexpected()
        if unexpected:
            raise AssertionError("discord logged errors:\n" + "\n---\n".join(unexpected))


@contextmanager
def capture_discord_errors(logger_name: str = "discord", *, check: bool = True) -> Iterator[DiscordErrors]:
    """Collect ERROR records of ``logger_name`` during the block; with ``check``, fail at its end if any
    was not expected. As a pytest fixture::

        @pytest.fixture
        def discord_errors():
            with capture_discord_errors() as errors:
                yield errors
    """
    handler = DiscordErrors()
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    if check:
        handler.check()
