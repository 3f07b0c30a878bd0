# One image for every role: `outreach serve` (embedded SQLite) or `outreach api|worker|scheduler` (PostgreSQL).
FROM node:20-bookworm AS web
WORKDIR /src
COPY package.json package-lock.json ./
COPY web/package.json web/
COPY console/package.json console/
COPY client/package.json client/
RUN npm ci
COPY web web
COPY console console
COPY client client
RUN npm run build -w web

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
COPY --from=web /src/web/dist web/dist
RUN cargo build --release --locked --bin outreach

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/outreach /usr/local/bin/outreach
WORKDIR /var/lib/outreach
ENV OUTREACH_HTTP__LISTEN=0.0.0.0:8080 \
    OUTREACH_METRICS__LISTEN=0.0.0.0:9090 \
    OUTREACH_DATABASE__URL=sqlite:///var/lib/outreach/data/outreach.db \
    OUTREACH_LOG__FORMAT=json
EXPOSE 8080 9090
ENTRYPOINT ["outreach"]
CMD ["serve"]
