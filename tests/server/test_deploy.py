"""The container files (``Dockerfile``, ``deploy/compose.yaml``, ``deploy/nginx.conf``),
checked where no Docker engine runs: each file is read and held to what docs/hosting.md
says of it, and nginx itself checks its configuration (``nginx -t``).
``tests/server/test_deploy_proxy.py`` runs the same topology with processes."""

from __future__ import annotations

import ipaddress
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import make_url

from cardtable.cli import STOP_SECONDS
from cardtable.server.commits import COMMIT_PATIENCE
from proxy_pieces import CONFIG, NGINX, certificate, loopback_config, nginx_command
from served import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"


def stages() -> list[tuple[str, str, list[str]]]:
    """The Dockerfile's stages: (image, name, instructions), line continuations joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    found: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            words = line.split()
            name = words[3] if len(words) > 3 and words[2].upper() == "AS" else ""
            found.append((words[1], name, []))
        elif found:
            found[-1][2].append(line)
    return found


def instruction(lines: list[str], keyword: str) -> list[str]:
    return [line[len(keyword) :].strip() for line in lines if line.startswith(keyword + " ")]


def test_the_dockerfile_builds_the_core_in_a_builder_and_runs_unprivileged() -> None:
    built = stages()
    names = [name for _, name, _ in built]
    assert names == ["rust", "builder", "runtime"]
    _, _, builder = built[1]
    image, _, runtime = built[2]
    # The builder: the Rust toolchain, maturin building cardtable's wheel from the sources.
    assert any("COPY --from=rust /usr/local/cargo" in line for line in builder)
    assert any("maturin build --release" in line for line in builder)
    copied = {
        word
        for line in instruction(builder, "COPY")
        if "--from" not in line
        for word in line.split()[:-1]  # the last is where they go
    }
    for source in ("Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "crates", "src"):
        assert source in copied and (ROOT / source).exists(), source
    # The runtime: a slim Python, no compiler, the wheels only (no sources, no network).
    assert image.startswith("python:") and "slim" in image
    installs = " ".join(instruction(runtime, "RUN"))
    assert "--no-index" in installs and "cardtable[postgres]" in installs
    assert "cargo" not in " ".join(runtime) and "gcc" not in installs
    # Not root: the last USER is a named user created in this stage.
    users = instruction(runtime, "USER")
    assert users and users[-1] not in ("root", "0")
    assert any("useradd" in line and users[-1] in line for line in runtime)
    # The server is the entrypoint, listening beyond the container's loopback.
    entrypoint = json.loads(instruction(runtime, "ENTRYPOINT")[0])
    assert entrypoint[:2] == ["cardtable", "serve"]
    assert entrypoint[entrypoint.index("--host") + 1] == "0.0.0.0"
    port = entrypoint[entrypoint.index("--port") + 1]
    assert instruction(runtime, "EXPOSE") == [port]
    # Its health check asks /health of that port, and the stop is the graceful SIGTERM.
    (check,) = instruction(runtime, "HEALTHCHECK")
    assert f"http://127.0.0.1:{port}/health" in check
    assert instruction(runtime, "STOPSIGNAL") == ["SIGTERM"]


def test_the_dockerignore_sends_the_sources_and_no_local_build() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[ignored.index("*") :].count("*") == 1  # everything, but what it names
    assert "src/cardtable/*.so" in ignored  # the compiled core of this checkout
    kept = {line[1:].rstrip("/") for line in ignored if line.startswith("!")}
    assert kept == {"Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "crates", "src"}


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def test_compose_runs_two_servers_on_postgresql_behind_the_proxy() -> None:
    services = compose()["services"]
    assert set(services) == {"database", "server-1", "server-2", "proxy"}
    assert services["database"]["image"].startswith("postgres:")
    servers = [services["server-1"], services["server-2"]]
    # One definition (a YAML anchor), two processes; each believes the forwarded headers
    # of the proxy's fixed address alone, in the network's own subnet, and names its own
    # peer address, at which the other relays the sockets of the tables it holds.
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    (subnet,) = [each["subnet"] for each in compose()["networks"]["default"]["ipam"]["config"]]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)
    for name, each in zip(("server-1", "server-2"), servers, strict=True):
        assert each["command"] == [
            *("--client-header", "X-Forwarded-For", "--trusted-proxy", proxy_address),
            *("--peer-host", name),
            # The site's name, from deploy/.env: a page under another is another site's.
            "--server-name",
            "${CARDTABLE_SERVER_NAME:?set CARDTABLE_SERVER_NAME in deploy/.env}",
        ]
        assert "networks" not in each  # on the default network, with the proxy
    example = (COMPOSE.parent / "example.env").read_text()
    assert re.search(r"^CARDTABLE_SERVER_NAME=\S+$", example, re.MULTILINE)
    assert {**servers[0], "command": None} == {**servers[1], "command": None}
    server = servers[0]
    build = server["build"]
    assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE
    url = make_url(
        re.sub(r"\$\{[^}]*\}", "secret", server["environment"]["CARDTABLE_DATABASE_URL"])
    )
    assert (url.drivername, url.host, url.database) == (
        "postgresql+psycopg",
        "database",
        "cardtable",
    )
    assert url.username == services["database"]["environment"]["POSTGRES_USER"]
    assert server["depends_on"]["database"]["condition"] == "service_healthy"
    assert "/ready" in " ".join(server["healthcheck"]["test"])
    # The stop's grace is longer than the server's own bound on a graceful stop: the
    # changes under way (the writer's patience and a second), the sockets' goodbye (a
    # second), the requests still being answered.
    grace = int(server["stop_grace_period"].rstrip("s"))
    assert grace > COMMIT_PATIENCE + 1 + 1 + STOP_SECONDS
    assert server["stop_signal"] == "SIGTERM"
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "443:443" in proxy["ports"]
    mounts = dict(volume.split(":")[:2] for volume in proxy["volumes"])
    assert mounts["./nginx.conf"] == "/etc/nginx/nginx.conf"
    assert (COMPOSE.parent / "nginx.conf") == CONFIG
    assert mounts["./certs"] == "/etc/nginx/certs"
    assert {"server-1", "server-2"} <= set(proxy["depends_on"])


def test_the_proxy_sends_websockets_and_each_table_to_one_server() -> None:
    text = CONFIG.read_text()
    services = compose()["services"]
    port = services["server-1"]["expose"][0]
    upstream = re.findall(r"^\s*server (\S+):(\d+) ", text, re.MULTILINE)
    assert upstream == [("server-1", port), ("server-2", port)]
    for needed in (
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "proxy_set_header X-Forwarded-For $remote_addr;",
        "hash $table_key consistent;",
        "listen 443 ssl;",
        "ssl_certificate /etc/nginx/certs/fullchain.pem;",
        "ssl_certificate_key /etc/nginx/certs/privkey.pem;",
        "return 301 https://$host$request_uri;",
    ):
        assert needed in text, needed
    # The key is the table's id wherever a path names a table (the page, the socket, the API).
    pattern = re.search(r"~(\^/\(\?:ws\|t\|api/tables\)/\S+) \$table_id;", text)
    assert pattern is not None
    key = re.compile(pattern.group(1).replace("(?<table_id>", "(?P<table_id>"))
    for path in ("/ws/abc_D-9", "/t/abc_D-9", "/api/tables/abc_D-9/replay/2"):
        match = key.match(path)
        assert match is not None and match.group("table_id") == "abc_D-9"
    assert key.match("/api/games") is None


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (scripts/install-test-deps)")
def test_nginx_accepts_the_configuration(tmp_path: Path) -> None:
    certificate(tmp_path)
    config = loopback_config(tmp_path, [free_port(), free_port()], free_port(), free_port())
    checked = subprocess.run(
        nginx_command(config, "-t"), capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr
