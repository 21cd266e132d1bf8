"""The loop that plans and sends webhook deliveries, beside the evolution worker in every worker process."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.admin.secret import session_secret
from app.config import Settings
from app.webhooks.service import WebhookSender

log = logging.getLogger(__name__)


class WebhookDispatcher:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], settings: Settings) -> None:
        self.sender = WebhookSender(
            sessionmaker,
            session_secret(settings),
            max_attempts=settings.webhook_max_attempts,
            retry_base_seconds=settings.webhook_retry_base_seconds,
        )
        self.poll_seconds = settings.webhook_poll_seconds
        self._stopping = asyncio.Event()

    async def run(self) -> None:
        while not self._stopping.is_set():
            try:
                await self.sender.plan()
                while await self.sender.send_due() and not self._stopping.is_set():
                    pass
            except Exception:
                log.exception("webhook dispatch failed (will retry)")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.poll_seconds)
        await self.sender.close()

    def stop(self) -> None:
        self._stopping.set()


class BackgroundDispatcher:
    def __init__(self, dispatcher: WebhookDispatcher) -> None:
        self.dispatcher = dispatcher
        self.task = asyncio.create_task(dispatcher.run(), name="genebank-webhooks")

    async def shutdown(self) -> None:
        self.dispatcher.stop()
        try:
            await self.task
        except Exception:
            log.exception("the webhook dispatcher failed")
