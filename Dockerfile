FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -o /out/gameassist ./cmd/gameassist

FROM debian:bookworm-slim
RUN useradd --system --home /var/lib/gameassist gameassist && mkdir -p /var/lib/gameassist && chown gameassist /var/lib/gameassist
COPY --from=build /out/gameassist /usr/local/bin/gameassist
COPY content /app/content
WORKDIR /app
USER gameassist
ENV CONTENT_DIR=/app/content
EXPOSE 8080
ENTRYPOINT ["gameassist"]
CMD ["serve"]
