"""Screenshot of a view page in headless Chromium (Debian's), for documentation.

    python -m kg.viz.screenshot data/graph.html docs/graph.png --select person/juan-guaido

Only file: requests are allowed; the shot is taken once physics has stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def screenshot(page_file: Path, png: Path, *, select: str | None = None, query: str = "",
               width: int = 1600, height: int = 1000) -> None:
    """Open `page_file` (with `query`, e.g. '?focus=...'), optionally open one node's panel, save a PNG."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
            page = context.new_page()
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
            page.goto(Path(page_file).resolve().as_uri() + query, wait_until="load")
            page.wait_for_function("window.kgView && kgView.timings.firstDraw && kgView.timings.ready")
            page.wait_for_function("!kgView.data.meta.physics || kgView.timings.stabilized !== undefined",
                                   timeout=30_000)
            if select:
                node = page.evaluate("id => kgView.resolve(id)", select)
                if node is None:
                    raise SystemExit(f"{select!r} names no node of the view")
                page.evaluate("id => kgView.selectNode(id)", node)
                page.evaluate("kgView.fit()")
            page.evaluate("kgView.drawn()")
            png.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(png))
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--select", help="node whose details panel is shown (IRI, key or name)")
    parser.add_argument("--query", default="", help="URL query, e.g. '?focus=person/juan-guaido&depth=2'")
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args()
    screenshot(args.page, args.png, select=args.select, query=args.query, width=args.width, height=args.height)


if __name__ == "__main__":
    main()
