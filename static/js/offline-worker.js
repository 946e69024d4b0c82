// Offline practice's web worker: Pyodide (CPython in WebAssembly) running the
// site's own engine and bots (games/engine, games/bots) and the practice
// driver (games/offline_practice.py). The page talks to it with messages:
//   page → worker  {type: "boot", pyodideUrl, engineUrl, files: [name...]}
//                  {type: "start", rules, level, seed} | {type: "play", action}
//                  {type: "bot"} | {type: "record"}
//   worker → page  {type: "progress", loaded, total, stage}
//                  {type: "ready"} | {type: "frame", frame} | {type: "record", record}
//                  {type: "failed", stage, message}
"use strict";

let pyodide = null;
let api = null;

function post(message) {
  self.postMessage(message);
}

// Downloads one file, telling the page how far it got. The response then sits
// in the service worker's cache (or the HTTP cache), where Pyodide's own fetch
// of the same URL finds it.
async function download(url, onBytes) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": HTTP " + response.status);
  const total = Number(response.headers.get("Content-Length")) || 0;
  if (!response.body) {
    const buffer = await response.arrayBuffer();
    onBytes(buffer.byteLength, total || buffer.byteLength);
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onBytes(value.byteLength, total);
  }
}

async function boot(message) {
  let stage = "download";
  try {
    const urls = message.files.map(function (name) { return message.pyodideUrl + name; });
    const sizes = message.sizes || {};
    let total = urls.reduce(function (sum, url) { return sum + (sizes[url] || 0); }, 0);
    let loaded = 0;
    post({ type: "progress", stage: stage, loaded: 0, total: total });
    await Promise.all(urls.map(function (url) {
      return download(url, function (bytes) {
        loaded += bytes;
        if (loaded > total) total = loaded;
        post({ type: "progress", stage: stage, loaded: loaded, total: total });
      });
    }));
    stage = "start";
    post({ type: "progress", stage: stage, loaded: total, total: total });
    importScripts(message.pyodideUrl + "pyodide.js");
    pyodide = await self.loadPyodide({ indexURL: message.pyodideUrl });
    stage = "engine";
    post({ type: "progress", stage: stage, loaded: total, total: total });
    const response = await fetch(message.engineUrl);
    if (!response.ok) throw new Error(message.engineUrl + ": HTTP " + response.status);
    const sources = await response.json();
    const root = "/home/pyodide/cuatrola";
    for (const [path, source] of Object.entries(sources)) {
      const parts = path.split("/");
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        dir += "/" + part;
        pyodide.FS.mkdirTree(dir);
      }
      pyodide.FS.writeFile(root + "/" + path, source);
    }
    pyodide.runPython("import sys; sys.path.insert(0, '" + root + "')");
    api = pyodide.pyimport("games.offline_practice");
    post({ type: "ready" });
  } catch (error) {
    post({ type: "failed", stage: stage, message: String(error && error.message || error) });
  }
}

function call(name, args) {
  try {
    return JSON.parse(api[name].apply(null, args));
  } catch (error) {
    return { type: "error", code: "worker_failed", message: String(error && error.message || error) };
  }
}

self.onmessage = function (event) {
  const message = event.data || {};
  if (message.type === "boot") {
    if (!pyodide) boot(message);
    return;
  }
  if (!api) {
    post({ type: "failed", stage: "engine", message: "not ready" });
    return;
  }
  if (message.type === "start") {
    post({ type: "frame", frame: call("start", [message.rules, message.level, message.seed]) });
  } else if (message.type === "play") {
    post({ type: "frame", frame: call("play", [message.action]) });
  } else if (message.type === "bot") {
    post({ type: "frame", frame: call("bot_play", []) });
  } else if (message.type === "record") {
    post({ type: "record", record: call("record", []) });
  }
};
