# syntax=docker/dockerfile:1.7
# Portolan as an image: the WASM router and the data artifacts are built by the project's own
# scripts (the commands scripts/install.sh runs on a host), then a slim runtime carries the
# artifacts, the production dependencies and Bun. The source data (each folder's README gives its
# licence) enters neither the repository nor the image: the build reads it as the named context
# `sources`, the runtime (carrier and airline tables, the air rate card) from a read-only mount.
#
#   docker build --build-context sources=../shared/data -t portolan .
#   docker run -p 8080-8085:8080-8085 -v "$PWD/../shared/data:/sources:ro" portolan

FROM node:20-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends rustc cargo libstd-rust-dev-wasm32 lld-14 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --loglevel=error
COPY . .
COPY --from=sources . /sources
ENV PORTOLAN_SOURCES=/sources
RUN bash scripts/build.sh

# Production dependencies and Bun (a dev dependency of the checkout, the runtime here).
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --loglevel=error \
 && npm install --omit=dev --no-save --no-audit --no-fund --loglevel=error \
      "bun@$(node -p "require('./package-lock.json').packages['node_modules/bun'].version")"

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/data/build ./data/build
COPY package.json bunfig.toml tsconfig.json ./
COPY bin ./bin
COPY api ./api
COPY common ./common
COPY data-build ./data-build
COPY engine ./engine
COPY formats ./formats
COPY ingest ./ingest
COPY router-wasm/binding ./router-wasm/binding
COPY storage ./storage
# Every product listens on all interfaces inside the container; the SQLite default lives in a volume.
ENV PORTOLAN_HOST=0.0.0.0 \
    PORTOLAN_DB=/var/lib/portolan/portolan.sqlite \
    PORTOLAN_SOURCES=/sources
VOLUME /var/lib/portolan
EXPOSE 8080-8085
CMD ["./node_modules/.bin/bun", "api/main.ts"]
