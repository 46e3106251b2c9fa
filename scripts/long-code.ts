/**
 * Functions over 100 lines and files over 600 lines in the product code (api, ingest, engine,
 * storage, common, formats, data-build, router-wasm's binding, bin), measured with the TypeScript
 * compiler API: a function is any function declaration, method, accessor, constructor, function
 * expression or arrow function, from its first line to its last. Tests, benches and generated code (ingest/
 * schedules/cs-schema.ts, written by gen-cs-schema.ts) are left out.
 *
 *   bun scripts/long-code.ts [--check]    (--check: exit 1 when anything is listed)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "ts5";

const ROOT = join(import.meta.dir, "..");
const FOLDERS = [
  "api",
  "ingest",
  "engine",
  "storage",
  "common",
  "formats",
  "data-build",
  "router-wasm/binding",
  "bin",
];
const GENERATED = new Set(["ingest/schedules/cs-schema.ts"]);
const MAX_FUNCTION_LINES = 100;
const MAX_FILE_LINES = 600;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Long {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The functions of one file longer than the limit, with a readable name each. */
function longFunctions(file: string, text: string): Long[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const out: Long[] = [];
  const visit = (node: ts.Node, owner: string) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - first + 1;
      const name = nameOf(node, source, owner);
      if (lines > MAX_FUNCTION_LINES) out.push({ file, name, line: first, lines });
      ts.forEachChild(node, (child) => visit(child, name));
      return;
    }
    const named = ts.isClassDeclaration(node) && node.name ? node.name.text : owner;
    ts.forEachChild(node, (child) => visit(child, named));
  };
  visit(source, "");
  return out;
}

function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile, owner: string): string {
  const own = node.name?.getText(source);
  const parent = node.parent;
  const bound =
    own ??
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
      ? parent.name.getText(source)
      : ts.isConstructorDeclaration(node)
        ? "constructor"
        : "(anonymous)");
  return owner ? `${owner}.${bound}` : bound;
}

const files = FOLDERS.flatMap((f) => sources(join(ROOT, f))).filter((f) => !GENERATED.has(relative(ROOT, f)));
const functions: Long[] = [];
const bigFiles: Array<{ file: string; lines: number }> = [];
for (const path of files) {
  const text = readFileSync(path, "utf8");
  const file = relative(ROOT, path);
  functions.push(...longFunctions(file, text));
  const lines = text.split("\n").length;
  if (lines > MAX_FILE_LINES) bigFiles.push({ file, lines });
}
functions.sort((a, b) => b.lines - a.lines);
bigFiles.sort((a, b) => b.lines - a.lines);
console.log(`functions over ${MAX_FUNCTION_LINES} lines: ${functions.length}`);
for (const f of functions) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
console.log(`files over ${MAX_FILE_LINES} lines: ${bigFiles.length}`);
for (const f of bigFiles) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}`);
if (Bun.argv.includes("--check") && functions.length + bigFiles.length > 0) process.exit(1);
