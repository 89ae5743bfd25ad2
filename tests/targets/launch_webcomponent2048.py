"""Serve npm `2048-webcomponent` unmodified on 127.0.0.1 with a host page that reports its board.

GET /           the host page (webcomponent2048.html beside this file): seeds Math.random from
                ?seed=, loads the package's dist/custom-element.js as it is, and wraps the
                element's move() and restartGame() from outside to POST each board
GET /pkg/...    the installed package's files ($TARGET_PKG_DIR)
POST /report    one record from the page, appended to $TARGET_TRUTH_LOG
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
_lock = threading.Lock()


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
        if path == "/":
            return self._send(200, (HERE / "webcomponent2048.html").read_bytes(), "text/html; charset=utf-8")
        if path.startswith("/pkg/"):
            file = (PKG / path[len("/pkg/"):]).resolve()
            if PKG in file.parents and file.is_file():
                ctype = "text/javascript" if file.suffix in (".js", ".mjs") else (
                    mimetypes.guess_type(file.name)[0] or "application/octet-stream")
                return self._send(200, file.read_bytes(), ctype)
        self._send(404, b"not found")

    def do_POST(self):
        if self.path != "/report":
            return self._send(404, b"not found")
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        record = json.loads(body)
        if LOG:
            with _lock, open(LOG, "a") as f:
                f.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._send(204, b"")


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdout.close()
    server.serve_forever()
