/**
 * A throwaway certificate authority and a server certificate it signs, made with openssl in a
 * folder of the caller's: what a local HTTPS webhook receiver presents (`portolan webhooks listen`,
 * the tests' receiver). The CA lives two days; only whoever is handed ca.pem trusts it.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LocalCertificates {
  /** PEM files: the CA's certificate, the server's certificate and its private key. */
  ca: string;
  cert: string;
  key: string;
}

/** `names` become the server certificate's subjectAltNames: host names, or IP literals. */
export function makeCertificates(dir: string, names: readonly string[]): LocalCertificates {
  const run = (args: string[]) => {
    try {
      execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    } catch (err) {
      const e = err as { code?: string; stderr?: Buffer };
      if (e.code === "ENOENT")
        throw new Error("openssl is not installed (it makes the throwaway certificates)");
      throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString().trim() || String(err)}`);
    }
  };
  run(
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2"]
      .concat(["-subj", "/CN=Portolan local webhook CA", "-addext", "basicConstraints=critical,CA:TRUE"])
      .concat(["-addext", "keyUsage=keyCertSign"]),
  );
  run(
    ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr"].concat([
      "-subj",
      `/CN=${names[0]}`,
    ]),
  );
  const alt = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",");
  writeFileSync(join(dir, "ext.cnf"), `subjectAltName=${alt}\nextendedKeyUsage=serverAuth\n`);
  run(
    ["x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"].concat([
      "-out",
      "srv.pem",
      "-days",
      "2",
      "-extfile",
      "ext.cnf",
    ]),
  );
  return { ca: join(dir, "ca.pem"), cert: join(dir, "srv.pem"), key: join(dir, "srv.key") };
}
