"""Pages of Debian's Chromium (through Playwright) for the browser tests, with what a page
did recorded, and every request that would leave this machine refused."""

from __future__ import annotations

from typing import TypeVar
from urllib.parse import urlsplit

from tests.helpers import BROWSER_TIMEOUT_MS

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
LOCAL_SCHEMES = {"file", "data", "blob"}


class WatchedPage:
    """A page with its uncaught script errors and console errors (`errors`), dialogs
    (dismissed), requests, and the requests it tried to send off this machine (`blocked`)."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.blocked: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("dialog", self._dialog)
        page.route("**/*", self._route)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route) -> None:
        url = route.request.url
        self.requests.append(url)
        parts = urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES or (parts.scheme in ("http", "https") and parts.hostname in LOOPBACK):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()


Watched = TypeVar("Watched", bound=WatchedPage)


def open_page(browser, kind: type[Watched] = WatchedPage, *, bypass_csp: bool = False,
              viewport: tuple[int, int] = (1280, 800)) -> tuple[object, Watched]:
    """A fresh browser context and a watched page in it; close the context when done."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, bypass_csp=bypass_csp)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    return context, kind(context.new_page())
