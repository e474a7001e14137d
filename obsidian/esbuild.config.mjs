// Builds the three files Obsidian loads from .obsidian/plugins/oraculo/:
// main.js (one CommonJS bundle, the "obsidian" module left to Obsidian),
// manifest.json and styles.css, into dist/ (or $OUTDIR). The same sources
// and lock file give the same bytes: nothing here reads the clock or the
// machine.
import { build } from "esbuild";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";

const outdir = process.env.OUTDIR || "dist";
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "cjs",
  platform: "browser",
  target: "es2020",
  external: ["obsidian", "electron", "@codemirror/*", "@lezer/*"],
  outfile: join(outdir, "main.js"),
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
});
await copyFile("manifest.json", join(outdir, "manifest.json"));
await copyFile("styles.css", join(outdir, "styles.css"));
