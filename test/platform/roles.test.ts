import { describe, expect, test } from "bun:test";
import { loadConfig, ROLES } from "../../api/config.ts";

describe("PORTOLAN_ROLES", () => {
  test.each([
    [undefined, [...ROLES]],
    ["", [...ROLES]],
    ["api", ["api"]],
    [" Poller , dispatcher", ["poller", "dispatcher"]],
    ["ais,api,ais", ["ais", "api"]],
  ])("%p runs %p", (value, roles) => {
    const env = value === undefined ? {} : { PORTOLAN_ROLES: value };
    expect([...loadConfig(env).roles].sort() as string[]).toEqual([...roles].sort());
  });

  test.each(["web", "api,workers", ","])("%p is refused with the roles there are", (value) => {
    expect(() => loadConfig({ PORTOLAN_ROLES: value })).toThrow(/PORTOLAN_ROLES: unknown role.*api, poller/);
  });
});
