# syntax=docker/dockerfile:1
# cardtable's web table in a container (docs/hosting.md).
#
#   docker build -t cardtable .
#   docker run -p 8000:8000 -v cardtable:/var/lib/cardtable cardtable
#
# The builder stage compiles the Rust core and builds the wheels (cardtable's, with maturin,
# and its dependencies'); the runtime stage installs them into a slim Python with no
# compiler, and runs the server as a user without privileges.

ARG PYTHON_VERSION=3.11
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-bookworm AS rust

FROM python:${PYTHON_VERSION}-slim-bookworm AS builder
# The Rust toolchain of the rust image, and a C compiler for its linker.
COPY --from=rust /usr/local/cargo /usr/local/cargo
COPY --from=rust /usr/local/rustup /usr/local/rustup
ENV CARGO_HOME=/usr/local/cargo \
    RUSTUP_HOME=/usr/local/rustup \
    PATH=/usr/local/cargo/bin:$PATH \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir "maturin>=1.7,<2"
WORKDIR /build
COPY Cargo.toml Cargo.lock pyproject.toml README.md ./
COPY crates crates
COPY src src
RUN maturin build --release --out /wheels \
    && pip wheel --no-cache-dir --wheel-dir /wheels "$(ls /wheels/cardtable-*.whl)[postgres]"

FROM python:${PYTHON_VERSION}-slim-bookworm AS runtime
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels "cardtable[postgres]"
# The server's user: no login, no privileges; its home holds the SQLite database when no
# CARDTABLE_DATABASE_URL names another.
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /var/lib/cardtable \
    --shell /usr/sbin/nologin cardtable
USER cardtable
WORKDIR /var/lib/cardtable
ENV CARDTABLE_DATABASE_URL=sqlite:////var/lib/cardtable/cardtable.db
VOLUME ["/var/lib/cardtable"]
EXPOSE 8000
# /health: the process is alive (a load balancer asks /ready, which also needs the database).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2).status != 200)"]
# SIGTERM: the graceful stop (changes under way committed, sockets told to reconnect).
STOPSIGNAL SIGTERM
ENTRYPOINT ["cardtable", "serve", "--host", "0.0.0.0", "--port", "8000"]
CMD []
