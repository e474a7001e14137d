# Oráculo in a container: a static binary (CGO_ENABLED=0: the SQLite
# driver, modernc.org/sqlite, is pure Go) on distroless's static image, run
# as its non-root user (65532), the index on the volume /data. Build and
# run (docker or podman alike; docs/service.md says more):
#
#   docker build -t oraculo .
#   docker run --rm -v oraculo-data:/data -v ~/notes:/notes:ro oraculo ingest /notes
#   docker run --rm -v oraculo-data:/data oraculo token add dm --role dm
#   docker run -d --name oraculo -p 127.0.0.1:8080:8080 \
#     -v oraculo-data:/data -v ~/notes:/notes:ro oraculo serve --watch
#
# serve listens on 0.0.0.0:8080 inside the container, no loopback
# address: it starts only with a tokens file (/data/tokens.yaml, which
# `oraculo token add` writes beside the index). Settings: flags after the
# image's name, or /data/oraculo.yaml (the config file beside the index).
# compose.yaml runs it beside Ollama.

# The images both stages start from. scripts/check-image builds the last
# stage alone, from scratch and a binary built outside (BINARY=prebuilt),
# where no registry can be reached.
ARG GO_IMAGE=docker.io/library/golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot
ARG BINARY=build

FROM ${GO_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=container
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/oraculo ./cmd/oraculo \
 && mkdir -p /out/data

# The binary and the empty /data, from the build context (a folder
# holding oraculo and data/) instead of the stage above.
FROM scratch AS prebuilt
COPY oraculo /out/oraculo
COPY data /out/data

FROM ${BINARY} AS binary

FROM ${RUNTIME_IMAGE}
COPY --from=binary /out/oraculo /usr/local/bin/oraculo
# /data belongs to the user the server runs as, so that a new volume
# mounted there is theirs too.
COPY --from=binary --chown=65532:65532 /out/data /data
USER 65532:65532
# Where the index is, and serve's default address ($ORACULO_ADDR): every
# interface of the container, whose port the host publishes. A flag, or
# addr in /data/oraculo.yaml, wins over it.
# SQLite's temporary files (a big ingest's sorts) go to /data too: in the
# container it finds no /tmp it may use, and the ingest fails with "disk
# I/O error (6410)".
ENV ORACULO_DB=/data/oraculo.db \
    ORACULO_ADDR=0.0.0.0:8080 \
    TMPDIR=/data
VOLUME ["/data"]
EXPOSE 8080
# A static image has no curl: oraculo health asks the server's /healthz.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/oraculo", "health"]
ENTRYPOINT ["/usr/local/bin/oraculo"]
CMD ["serve"]
