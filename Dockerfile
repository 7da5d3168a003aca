# syntax=docker/dockerfile:1
# Multi-stage build: a cgo build (go-sqlite3) on Debian, then a distroless
# runtime with glibc, CA certificates (HTTPS to a hosted LLM) and a non-root
# user. The image starts with no volume and no configuration: embedded
# defaults, the sample game built into /var/lib/gameassist, the sample
# content in /app/content. It runs with a read-only root filesystem as long
# as /var/lib/gameassist is a volume (compose and deploy/k8s mount one).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/root/go/pkg/mod go mod download
COPY . .
# The first build compiles SQLite: a few minutes; later builds hit the cache.
RUN --mount=type=cache,target=/root/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/gameassist ./cmd/gameassist \
 && mkdir -p /out/state

FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/gameassist /usr/local/bin/gameassist
COPY --from=build --chown=65532:65532 /out/state /var/lib/gameassist
COPY content /app/content
WORKDIR /app
USER 65532:65532
ENV ADDR=":8080" \
    CONTENT_DIR="/app/content" \
    GCS_DB_PATH="/var/lib/gameassist/gcs.db" \
    LOG_FORMAT="json"
EXPOSE 8080
VOLUME ["/var/lib/gameassist"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/usr/local/bin/gameassist", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/gameassist"]
CMD ["serve"]
