"""The practice server without a browser: static files, reports -> history, resets, commands, errors."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from argparse import Namespace

import pytest

from screenbot.cli import main as cli_main
from screenbot.commands import practice as practice_command
from screenbot.practice.server import PortInUseError, PracticeServer


@pytest.fixture
def server():
    with PracticeServer(control_wait_s=0.3) as srv:
        yield srv


def get(srv: PracticeServer, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}{path}", timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def post(srv: PracticeServer, path: str, payload) -> int:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{srv.port}{path}", data=data, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def state(srv: PracticeServer) -> dict:
    status, _, body = get(srv, "/state")
    assert status == 200
    return json.loads(body)


B0 = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
B1 = [[4, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]
B2 = [[4, 2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def report(page="p1", seq=1, event="move", board=B0, moves=0, game=1, **extra):
    return {"page": page, "seq": seq, "event": event, "board": board, "score": 4 * moves, "won": False,
            "over": False, "keep_going": False, "moves": moves, "keys": moves, "game": game, "seed": 9,
            "move": "up" if event == "move" else None, "t_key": 1.0, **extra}


def test_serves_the_page_and_its_files_from_localhost_only(server):
    assert server.server_address[0] == "127.0.0.1"
    status, headers, body = get(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"<title>2048</title>" in body
    for path, ctype in (("/style.css", "text/css"), ("/game.js", "text/javascript")):
        status, headers, body = get(server, path)
        assert status == 200 and headers["Content-Type"].startswith(ctype) and len(body) > 1000
    assert get(server, "/nothing-here")[0] == 404


def test_state_before_any_report_is_not_ready(server):
    st = state(server)
    assert st["ready"] is False and st["board"] is None and st["history"] == []


def test_reports_build_the_history_of_the_current_game(server):
    assert post(server, "/report", report(seq=1, event="start", board=B0)) == 204
    assert post(server, "/report", report(seq=2, board=B1, moves=1)) == 204
    assert post(server, "/report", report(seq=3, event="noop", board=B1, moves=1)) == 204
    assert post(server, "/report", report(seq=4, board=B2, moves=2)) == 204
    st = state(server)
    assert st["ready"] and st["start"] == B0
    assert st["history"] == [B1, B2] and st["history_moves"] == ["up", "up"]
    assert st["board"] == B2 and st["moves"] == 2 and st["score"] == 8 and st["seq"] == 4
    assert st["won"] is False and st["over"] is False and st["keep_going"] is False


def test_a_new_game_or_a_new_page_starts_a_new_history(server):
    post(server, "/report", report(seq=1, event="start", board=B0))
    post(server, "/report", report(seq=2, board=B1, moves=1))
    post(server, "/report", report(seq=3, event="start", board=B2, game=2))
    st = state(server)
    assert st["start"] == B2 and st["history"] == [] and st["game"] == 2
    post(server, "/report", report(page="p2", seq=1, event="start", board=B0))
    post(server, "/report", report(page="p2", seq=2, board=B1, moves=1))
    st = state(server)
    assert st["page"] == "p2" and st["start"] == B0 and st["history"] == [B1] and st["pages"] == 2


def test_stale_reports_are_ignored(server):
    post(server, "/report", report(seq=1, event="start", board=B0))
    post(server, "/report", report(seq=3, board=B1, moves=1))
    post(server, "/report", report(seq=2, board=B2, moves=1))  # arrives late: dropped
    assert state(server)["history"] == [B1]


def test_layout_reports_update_the_layout_not_the_history(server):
    post(server, "/report", report(seq=1, event="start", board=B0, layout={"board": [1, 2, 3, 4]}))
    assert post(server, "/report", {"page": "p1", "seq": 2, "event": "layout", "layout": {"board": [5, 6, 7, 8]}}) == 204
    st = state(server)
    assert st["layout"] == {"board": [5, 6, 7, 8]} and st["event"] == "start" and st["history"] == []


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", json.dumps(report(board=[[2, 2]])).encode()])
def test_bad_reports_are_refused(server, body):
    assert post(server, "/report", body) == 400
    assert state(server)["ready"] is False


def test_reset_forgets_the_history(server):
    post(server, "/report", report(seq=1, event="start", board=B0))
    post(server, "/report", report(seq=2, board=B1, moves=1))
    assert post(server, "/reset", b"") == 204
    st = state(server)
    assert st["ready"] is False and st["history"] == [] and st["start"] is None


def test_commands_reach_the_page_through_the_long_poll(server):
    status, _, _ = get(server, "/control?page=p1")
    assert status == 204  # nothing to do within control_wait_s
    got = {}

    def poll():
        got["answer"] = get(server, "/control?page=p1")

    t = threading.Thread(target=poll)
    t.start()
    server.state.command({"navigate": "?seed=3"})
    t.join(5)
    status, _, body = got["answer"]
    assert status == 200 and json.loads(body) == {"navigate": "?seed=3"}


def test_wait_for_returns_when_the_page_reports(server):
    threading.Timer(0.1, lambda: post(server, "/report", report(seq=1, event="start", board=B0))).start()
    snap = server.state.wait_for(lambda s: s["ready"], timeout=5)
    assert snap is not None and snap["board"] == B0
    assert server.state.wait_for(lambda s: s["moves"] > 0, timeout=0.1) is None


def test_url_carries_the_page_options(server):
    url = server.url(theme="dark", seed=5, board=((2, 0, 0, 0),) * 4, keep=True, anim=None)
    assert url == f"http://127.0.0.1:{server.port}/?theme=dark&seed=5&board=2%2C0%2C0%2C0%2C2%2C0%2C0%2C0%2C2%2C0%2C0%2C0%2C2%2C0%2C0%2C0&keep=1"


def test_url_carries_the_look_options(server):
    url = server.url(theme="terminal", marks=True, overhang=True, keys="hjkl", anim=None)
    assert url.endswith("/?theme=terminal&marks=1&overhang=1&keys=hjkl")


def test_state_reports_the_look_options(server):
    assert post(server, "/report", report(seq=1, event="start", theme="lines", marks=True, overhang=False,
                                          key_set="wasd")) == 204
    st = state(server)
    assert (st["theme"], st["marks"], st["overhang"], st["key_set"]) == ("lines", True, False, "wasd")


def test_state_reports_the_win_message_options(server):
    assert post(server, "/report", report(seq=1, event="start", win=4096, dismiss="key")) == 204
    st = state(server)
    assert (st["win"], st["dismiss"]) == (4096, "key")


def test_url_carries_the_win_message_options(server):
    assert server.url(win=4096, dismiss="key", anim=None).endswith("/?win=4096&dismiss=key")


@pytest.mark.parametrize("text, options", [(None, (None, False)), ("4096", (4096, False)), ("never", (None, True))])
def test_cli_win_option_is_a_tile_or_never(text, options):
    assert practice_command.win_option(text) == options


def test_taken_port_is_a_one_line_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(PortInUseError, match=f"port {port} .* is taken"):
            PracticeServer(port)


def test_cli_reports_a_taken_port_in_one_line(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code = cli_main(["practice", "--no-open", "--port", str(port)])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and err.startswith("screenbot: error: port")


@pytest.mark.parametrize("argv", [["--port", "70000"], ["--seed", "-1"], ["--theme", "neon"], ["--size", "5"],
                                  ["--win", "3000"], ["--win", "later"], ["--dismiss", "wave"]])
def test_cli_refuses_bad_options(argv, capsys):
    assert cli_main(["practice", "--no-open", *argv]) == 2
    assert capsys.readouterr().err.startswith("screenbot: error:")


def test_practice_command_serves_until_stopped(capsys, monkeypatch):
    opened = []
    monkeypatch.setattr(practice_command.webbrowser, "open", opened.append)
    stop = threading.Event()
    args = Namespace(theme="dark", seed=7, size=None, anim=None, port=0, no_open=False)
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("code", practice_command.run(args, stop=stop)))
    t.start()
    for _ in range(100):
        if opened:
            break
        threading.Event().wait(0.05)
    url = opened[0]
    assert url.startswith("http://127.0.0.1:") and "theme=dark" in url and "seed=7" in url
    with urllib.request.urlopen(url, timeout=5) as r:
        assert b"2048" in r.read()
    stop.set()
    t.join(5)
    out = capsys.readouterr().out
    assert result["code"] == 0 and url in out and "stopped" in out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_practice_command_stops_cleanly_on_a_signal(sig):
    proc = subprocess.Popen(
        [sys.executable, "-m", "screenbot", "practice", "--no-open"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = proc.stdout.readline()
        assert first.startswith("practice board: http://127.0.0.1:")
        url = first.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=5) as r:
            assert r.status == 200
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "practice board stopped" in out and err == ""
