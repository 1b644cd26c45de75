# Multi-stage build: compile in the Rust image, run from a small Debian image as a
# non-root user. The database lives in /data (a volume in docker-compose.yml).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p jass-server

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home /data jass \
    && mkdir -p /data && chown jass /data
COPY --from=build /src/target/release/jass-server /usr/local/bin/jass-server
COPY --from=build /src/web /srv/web
USER jass
WORKDIR /data
ENV JASS_ADDR=0.0.0.0:8080 \
    JASS_WEB_DIR=/srv/web \
    JASS_DB=/data/jass.sqlite3
EXPOSE 8080
CMD ["jass-server"]
