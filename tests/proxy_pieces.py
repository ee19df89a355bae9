"""nginx as ``deploy/nginx.conf`` configures it, run on loopback for the tests: the same
file, with the container's names and paths swapped for the test's (the servers' ports,
the listening ports, a certificate made for the test), and nothing else changed.

Debian's ``nginx-light`` and ``openssl`` provide the programs (``scripts/install-test-deps``).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from served import free_port

__all__ = ["CONFIG", "NGINX", "Proxy", "certificate", "loopback_config", "nginx_proxy"]

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
START_SECONDS = 20.0


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key, as
    ``certs/fullchain.pem`` and ``certs/privkey.pem`` in ``folder`` (the names the
    configuration reads)."""
    certs = folder / "certs"
    certs.mkdir(parents=True, exist_ok=True)
    chain, key = certs / "fullchain.pem", certs / "privkey.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"),
            *("-nodes", "-days", "2", "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
            *("-keyout", str(key), "-out", str(chain)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return chain, key


def _swap(text: str, old: str, new: str, count: int = 1) -> str:
    """``text`` with ``old`` replaced: it must be there exactly ``count`` times, so that a
    change to the configuration's shape fails the test instead of going untested."""
    found = text.count(old)
    assert found == count, f"deploy/nginx.conf has {old!r} {found} times, not {count}"
    return text.replace(old, new)


def loopback_config(folder: Path, servers: list[int], https: int, http: int) -> Path:
    """``deploy/nginx.conf`` for loopback: the servers at ``servers`` (ports, in the order
    of server-1, server-2), TLS on ``https``, the redirect on ``http``; its certificate in
    ``folder``/certs, its temporary files and pid in ``folder``."""
    text = CONFIG.read_text()
    for number, port in enumerate(servers, 1):
        text = _swap(text, f"server server-{number}:8000 ", f"server 127.0.0.1:{port} ")
    text = _swap(text, "listen 80;", f"listen 127.0.0.1:{http};")
    text = _swap(text, "listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
    text = _swap(text, "listen [::]:80;\n", "")
    text = _swap(text, "listen [::]:443 ssl;\n", "")
    text = _swap(text, "/etc/nginx/certs/", f"{folder}/certs/", 2)
    text = _swap(text, "access_log /dev/stdout;", f"access_log {folder}/access.log;")
    temporary = "".join(
        f"    {kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy")
    )
    text = _swap(text, "http {\n", "http {\n" + temporary)
    written = folder / "nginx.conf"
    written.write_text(text)
    return written


def nginx_command(config: Path, *extra: str) -> list[str]:
    folder = config.parent
    return [
        *(NGINX, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")),
        *("-g", f"pid {folder}/nginx.pid; daemon off;", *extra),
    ]


@dataclass(frozen=True, slots=True)
class Proxy:
    https: int
    http: int
    certificate: Path

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def ws(self, table: str) -> str:
        return f"wss://127.0.0.1:{self.https}/ws/{table}"


@contextmanager
def nginx_proxy(folder: Path, servers: list[int]) -> Iterator[Proxy]:
    """nginx in front of the servers at ``servers``, until the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    chain, _key = certificate(folder)
    https, http = free_port(), free_port()
    config = loopback_config(folder, servers, https, http)
    process = subprocess.Popen(
        nginx_command(config), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _listening(https):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"nginx did not start: {_log(folder)}")
            time.sleep(0.05)
        yield Proxy(https, http, chain)
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


def _log(folder: Path) -> str:
    log = folder / "error.log"
    return log.read_text()[-3000:] if log.exists() else "(no log)"
