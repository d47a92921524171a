# DataOps Console: the server, compiled to JavaScript, with the console it serves.
#   docker build -t dataops-console .
#   docker run -p 8080:8080 -v dataops-data:/data dataops-console
# No secret is baked in: APP_SECRET, DATABASE_URL, SMTP_URL, … come from the environment
# (compose.yaml reads them from an env file); without DATABASE_URL the embedded database
# lives in the /data volume.

FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:server

FROM node:22-bookworm-slim AS runtime-packages
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    CONSOLE_DIR=/app/dist/console \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=runtime-packages /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The server runs as the image's unprivileged user, which alone may read its data (mode 0700).
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server/index.mjs"]
