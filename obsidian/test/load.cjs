// Loads the built plugin ($PLUGIN_DIR/main.js, else dist/main.js) with
// `require("obsidian")` answered by the stub, as Obsidian answers it
// with its own module.
"use strict";
const Module = require("node:module");
const path = require("node:path");

const stubPath = path.join(__dirname, "obsidian-stub.cjs");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "obsidian" ? stubPath : resolve.call(this, request, ...rest);
};

const dir = process.env.PLUGIN_DIR || path.join(__dirname, "..", "dist");
module.exports = { plugin: require(path.join(path.resolve(dir), "main.js")), obsidian: require(stubPath) };
