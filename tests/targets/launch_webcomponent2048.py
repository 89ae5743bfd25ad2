"""Serve npm `2048-webcomponent` unmodified on 127.0.0.1 with a host page that reports its board
(page_server.py says what is served where).

/           the host page (webcomponent2048.html beside this file): seeds Math.random from ?seed=
            (seeded_random.js), loads the package's dist/custom-element.js as it is, and wraps the
            element's move() and restartGame() from outside to POST each board to /report
/pkg/...    the installed package's files
"""

from pathlib import Path

import page_server

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    page_server.serve(lambda pkg: (HERE / "webcomponent2048.html").read_bytes(), ["seeded_random.js"],
                      pkg_prefix="/pkg/")
