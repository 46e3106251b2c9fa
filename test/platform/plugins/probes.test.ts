/** The probes plugin alone: /livez, and /readyz answering each check's state, ready or not. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { probes } from "../../../api/shared/plugins/probes.ts";
import { Readiness } from "../../../api/shared/readiness.ts";

const call = async (readiness: Readiness, path: string) => {
  const res = await new Elysia()
    .use(probes("test", readiness, null))
    .handle(new Request(`http://localhost${path}`));
  return [res.status, await res.json()];
};

describe("probes", () => {
  test("/livez answers while the process does, whatever its dependencies", async () => {
    const broken = new Readiness().add("database", () => ({ status: "down" }));
    expect(await call(broken, "/livez")).toEqual([200, { status: "live" }]);
  });

  test("/readyz: degraded stays ready, down is not ready, each check reported", async () => {
    const readiness = new Readiness()
      .add("database", () => ({ status: "up" }))
      .add("carriers", () => ({ status: "degraded", detail: "unreachable: carrier MAEU" }));
    expect(await call(readiness, "/readyz")).toEqual([
      200,
      {
        status: "ready",
        checks: {
          database: { status: "up" },
          carriers: { status: "degraded", detail: "unreachable: carrier MAEU" },
        },
      },
    ]);
    readiness.add("route_workers", () => {
      throw new Error("0 of 2 workers loaded");
    });
    expect(await call(readiness, "/readyz")).toMatchObject([
      503,
      { status: "not_ready", checks: { route_workers: { status: "down", detail: "0 of 2 workers loaded" } } },
    ]);
  });

  test("a draining process is not ready", async () => {
    const readiness = new Readiness().add("database", () => ({ status: "up" }));
    readiness.drain();
    expect(await call(readiness, "/readyz")).toEqual([
      503,
      {
        status: "not_ready",
        checks: { database: { status: "up" }, process: { status: "down", detail: "stopping" } },
      },
    ]);
  });
});
