"""The page server of the web targets, run by their launchers (launch_webcomponent2048.py,
launch_npm_2048html.py). On 127.0.0.1 it serves:

GET /  (or /index.html)   the host page the launcher makes
GET /harness/<name>       a script of the harness beside this file, among those the launcher names
GET <prefix><path>        the installed npm package's files ($TARGET_PKG_DIR), unchanged
POST /report              one record from the page, appended to $TARGET_TRUTH_LOG

It prints "PORT <n>" on stdout once it listens, then serves until it is ended.
"""

import json
import mimetypes
import os
import sys
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
HTML = "text/html; charset=utf-8"
JS = "text/javascript"


def serve(host_page: Callable[[Path], bytes], scripts: Iterable[str], pkg_prefix: str = "/") -> None:
    """Serve until ended: `host_page(package folder)` at /, each of `scripts` (file names beside this
    one) at /harness/<name>, and the package's files under `pkg_prefix`."""
    pkg = Path(os.environ["TARGET_PKG_DIR"]).resolve()
    log = os.environ.get("TARGET_TRUTH_LOG")
    harness_files = {f"/harness/{name}": HERE / name for name in scripts}
    lock = threading.Lock()

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
                return self._send(200, host_page(pkg), HTML)
            if path in harness_files:
                return self._send(200, harness_files[path].read_bytes(), JS)
            if path.startswith(pkg_prefix):
                file = (pkg / path[len(pkg_prefix):]).resolve()
                if pkg in file.parents and file.is_file():
                    ctype = JS if file.suffix in (".js", ".mjs") else (
                        mimetypes.guess_type(file.name)[0] or "application/octet-stream")
                    return self._send(200, file.read_bytes(), ctype)
            self._send(404, b"not found")

        def do_POST(self):
            if self.path != "/report":
                return self._send(404, b"not found")
            record = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if log:
                with lock, open(log, "a") as f:
                    f.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._send(204, b"")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdout.close()
    server.serve_forever()
