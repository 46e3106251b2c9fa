/**
 * The ```sh blocks of Markdown files, run as written in one bash against a started server
 * (helpers/server-process.ts): the products' default URLs become the server's ports, /tmp/ a folder
 * of the run's, and every curl fails on an HTTP error status (--fail-with-body).
 */
import { PRODUCTS } from "../../api/shared/products.ts";
import type { ServerProcess } from "./server-process.ts";

export interface Block {
  /** The Markdown file, as the script's comments and failures name it. */
  file: string;
  /** The heading the block sits under. */
  section: string;
  line: number;
  text: string;
  /** The reason of a `<!-- not run: reason -->` line right above the block, else null. */
  notRun: string | null;
}

const NOT_RUN = /^<!-- not run: (.*\S)\s*-->$/;

/** Every ```sh block of a Markdown text, with the heading above it, its first line and its skip marker. */
export function shellBlocks(markdown: string, file: string): Block[] {
  const blocks: Block[] = [];
  let section = "";
  let open: Block | null = null;
  let above = "";
  for (const [i, line] of markdown.split("\n").entries()) {
    if (open) {
      if (line.startsWith("```")) {
        blocks.push(open);
        open = null;
      } else open.text += `${line}\n`;
    } else if (line.startsWith("#")) section = line.replace(/^#+\s*/, "");
    else if (line === "```sh") {
      const notRun = NOT_RUN.exec(above)?.[1] ?? null;
      open = { file, section, line: i + 2, text: "", notRun };
    }
    if (line.trim() !== "") above = line.trim();
  }
  return blocks;
}

/** A block as a run executes it: the server's URLs, the run's folder, curl failing on errors. */
function localised(block: Block, server: ServerProcess, dir: string): string {
  let text = block.text.replaceAll("/tmp/", `${dir}/`);
  for (const p of PRODUCTS) text = text.replaceAll(`http://127.0.0.1:${p.defaultPort}`, server.base[p.id]);
  return text.replace(/\bcurl -s\b/g, "curl -sS --fail-with-body");
}

/** One bash script: the preamble, then the blocks in order, each announced by a marker line. */
function script(blocks: Block[], server: ServerProcess, dir: string, preamble: string): string {
  const parts = blocks.map(
    // The newline first: a curl answer ends without one.
    (b, i) =>
      `printf '\\n@@block ${i}\\n'\n# ${b.file} line ${b.line} (${b.section})\n${localised(b, server, dir)}`,
  );
  return [
    "set -eo pipefail",
    `trap 'echo "command failed (exit $?): $BASH_COMMAND" >&2' ERR`,
    preamble,
    ...parts,
    "printf '\\n@@end\\n'",
  ].join("\n");
}

export interface BlocksRun {
  code: number;
  out: string;
  /** Each block's output, in order, as far as the run got. */
  outputs: string[];
  /** The block the run failed in, with the failing command, else null. */
  failed: string | null;
}

/** Runs `blocks` in one bash (variables carry from block to block) from `cwd`, with `env`. */
export async function runBlocks(
  blocks: Block[],
  opts: {
    server: ServerProcess;
    dir: string;
    cwd: string;
    env: Record<string, string | undefined>;
    preamble?: string;
  },
): Promise<BlocksRun> {
  const text = script(blocks, opts.server, opts.dir, opts.preamble ?? "");
  const run = Bun.spawn(["timeout", "600", "bash", "-c", text], {
    env: { ...opts.env, TMPDIR: opts.dir }, // mktemp's files go with this run's folder
    cwd: opts.cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  const outputs = out.split(/\n@@block \d+\n/).slice(1);
  const reached = blocks[Math.max(0, outputs.length - 1)];
  const failed =
    code === 0 ? null : `${reached?.file} line ${reached?.line} (${reached?.section}): ${err.trim()}`;
  return { code, out, outputs, failed };
}
