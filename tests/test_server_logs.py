"""The server's structured logs (issue: "a health endpoint and structured logs"; bad input
"the server logs it"): every line `cardtable serve` writes is one JSON object, and a refused
message is logged with its table and error code."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from websockets.sync.client import connect

from served import ServerProcess


def test_every_log_line_is_json_and_refusals_are_logged(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log")
    server.start()
    try:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}]
        opened = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats})
        assert opened.status_code == 400  # Neuf is for 3 or 4: refused, and logged
        opened = httpx.post(
            f"{server.http}/api/tables", json={"game": "knockout-whist", "seats": seats}
        )
        table = opened.json()["table"]
        with connect(server.ws(table)) as socket:
            socket.send("{not json")
            refusal = json.loads(socket.recv(timeout=10))
            assert refusal["type"] == "error" and refusal["code"] == "malformed"
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    assert lines, "the server wrote no log"
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert not any("color_message" in line for line in lines)
    refused = [line for line in lines if line["message"] == "message refused"]
    assert [(r["table"], r["code"]) for r in refused] == [(table, "malformed")]
    assert any(
        line["message"] == "table refused" and line["code"] == "bad_options" for line in lines
    )
    assert any(line["message"] == "table opened" and line["table"] == table for line in lines)
