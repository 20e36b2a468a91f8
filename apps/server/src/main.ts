import { DataDirLockedError } from "@moonport/db";
import { buildApp } from "./app.ts";
import { openConfiguredDatabase } from "./db.ts";
import { EnvError, readEnv } from "./env.ts";
import { type MetricsServer, startMetricsServer } from "./observability/metrics-server.ts";
import { startupTasks } from "./startup.ts";

async function main() {
  let config: ReturnType<typeof readEnv>;
  try {
    config = readEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  let database: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    database = await openConfiguredDatabase(config, `moonport server (pid ${process.pid})`);
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const { app, ctx } = await buildApp({ config, database });

  let metricsServer: MetricsServer | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const timer = setTimeout(() => {
      app.log.error("shutdown took over 25 s; exiting");
      process.exit(1);
    }, 25_000);
    try {
      await app.close();
      await metricsServer?.close();
      await database.close();
      app.log.info("closed cleanly");
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  const { port: metricsPort } = config.metrics;
  if (metricsPort !== undefined) {
    metricsServer = await startMetricsServer(
      ctx.observability.metrics,
      { ...config.metrics, port: metricsPort },
      app.log,
    );
    app.log.info({ host: config.metrics.host, port: metricsServer.port }, "metrics listening on /metrics");
  }
  await startupTasks(ctx, `http://localhost:${config.port}`);
  // Background jobs run in every instance (claims never overlap); app.close() above stops them gracefully.
  ctx.jobs.start();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
