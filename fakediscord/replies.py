"""What the test gets back for each simulated user action: the bot's answer to one interaction."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from .models import EPHEMERAL, ErrorRecord, FakeAttachment, FakeChannel, FakeMessage, FakeUser
from .waiting import Notifier

# Callback types, named as in Discord's docs.
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9


@dataclass(eq=False)
class Reply:
    """The bot's response to one interaction the test sent.

    ``await reply`` (or ``await reply.wait()``) waits for the acknowledgement. Answers the fake refused
    (broken limits, wrong callback type) are in ``rejections``; the bot may still retry. Afterwards
    ``response_type`` is the callback type (4 message, 5 deferred, 6 deferred update, 7 update,
    8 autocomplete, 9 modal); ``message`` is the response message as it is *now* (for 6/7 the message
    the component was on), so later edits through the webhook show up there.
    """

    interaction_id: int
    token: str
    interaction_type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    notifier: Notifier = field(repr=False)
    deadline: float = 3.0
    created: float = field(default_factory=time.monotonic)
    source_message: FakeMessage | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    message: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    error: ErrorRecord | None = None
    rejections: list[ErrorRecord] = field(default_factory=list)

    def __repr__(self) -> str:
        return (
            f"<Reply {self._describe()} by {self.user.name} in #{self.channel.name}"
            f" response_type={self.response_type} message={self.message!r} error={self.error}>"
        )

    @property
    def acknowledged(self) -> bool:
        """Whether the bot answered the callback in time."""
        return self.response_type is not None

    @property
    def expired(self) -> bool:
        """Whether the 3-second acknowledgement window has passed."""
        return time.monotonic() - self.created > self.deadline

    @property
    def token_expired(self) -> bool:
        """Whether the 15-minute followup window has passed."""
        return time.monotonic() - self.created > 15 * 60

    # Convenience views of the answer; they read the live message so edits are visible.
    @property
    def content(self) -> str | None:
        return self.message.content if self.message else (self.response_data or {}).get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        if self.message:
            return self.message.components
        return (self.response_data or {}).get("components") or []

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.message.attachments if self.message else []

    @property
    def ephemeral(self) -> bool:
        if self.message is not None:
            return self.message.ephemeral
        return bool((self.response_data or {}).get("flags", 0) & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        return (self.response_data or {}).get("choices") or []

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9): ``{"custom_id", "title", "components"}``."""
        return self.response_data if self.response_type == MODAL else None

    def _describe(self) -> str:
        return f"interaction {self.interaction_id} ({self.payload.get('data', {}).get('name') or 'component'})"

    async def wait(self, timeout: float = 5.0) -> Reply:
        """Wait until the bot acknowledged the interaction; return self.

        Raises ``TimeoutError`` if it did not within ``timeout`` seconds, or ``AssertionError`` if it
        answered too late (the fake then answered the bot 10062 and recorded an error).
        """
        try:
            await self.notifier.wait_for(
                lambda: self.acknowledged or self.error is not None, timeout, f"an answer to {self._describe()}"
            )
        except TimeoutError as timeout_error:
            if not self.rejections:
                raise
            # The bot tried, but the fake refused the answer: say why rather than just "timed out".
            refused = "; ".join(map(str, self.rejections))
            raise TimeoutError(f"{timeout_error} (the bot's answers were refused: {refused})") from None
        if not self.acknowledged:
            raise AssertionError(f"{self._describe()} was not acknowledged in time: {self.error}")
        return self

    def __await__(self) -> Generator[Any, None, Reply]:
        return self.wait().__await__()

    async def wait_message(
        self, predicate: Callable[[FakeMessage], bool] | None = None, timeout: float = 5.0
    ) -> FakeMessage:
        """Wait for a finished response message (not "thinking…") that satisfies ``predicate``.

        Useful after a deferral: it returns once the bot edited the original response.
        """

        def ready() -> FakeMessage | None:
            msg = self.message
            if msg is None or msg.loading or msg.deleted:
                return None
            return msg if predicate is None or predicate(msg) else None

        return await self.notifier.wait_for(ready, timeout, f"the response message of {self._describe()}")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until at least ``count`` followup messages were sent; return them all."""
        return await self.notifier.wait_for(
            lambda: self.followups if len(self.followups) >= count else None,
            timeout,
            f"{count} followup(s) to {self._describe()}",
        )
