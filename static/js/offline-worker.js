// Offline practice's web worker: Pyodide (CPython in WebAssembly) running the
// site's own engine and bots (cuatrola/engine, cuatrola/bots) and the practice
// driver (games/frames/offline_practice.py). The page talks to it with messages:
//   page → worker  {type: "boot", pyodideUrl, engineUrl, cacheName, files: [name...], sizes}
//                  {type: "start", rules, level, seed, playerName, words, match[, firstDealer, lastHand]}
//                  {type: "play", action, match}
//                  {type: "bot", match} | {type: "record"}
//   worker → page  {type: "progress", loaded, total, stage}
//                  {type: "ready"} | {type: "frame", frame, match} | {type: "record", record}
//                  {type: "failed", stage, message}
// `match` is the page's own number for the match, echoed so that a frame of a
// match the player has left is recognised and dropped. `playerName` and `words`
// (JSON text of the game words, games/words/catalogue.py) are in the page's language: the
// frames name the player so, and refusals read as the server words them.
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

const ROOT = "/home/pyodide/cuatrola";

function writeSources(sources) {
  for (const [path, source] of Object.entries(sources)) {
    const parts = path.split("/");
    let dir = ROOT;
    for (const part of parts.slice(0, -1)) {
      dir += "/" + part;
      pyodide.FS.mkdirTree(dir);
    }
    pyodide.FS.writeFile(ROOT + "/" + path, source);
  }
}

// Every shipped module, imported now rather than at the first bot move.
function importAll(sources) {
  const modules = Object.keys(sources).map(function (path) {
    return path
      .replace(/\.py$/, "")
      .replace(/\/__init__$/, "")
      .split("/")
      .join(".");
  });
  pyodide.runPython(
    "import importlib, sys\n" +
      "if " +
      JSON.stringify(ROOT) +
      " not in sys.path: sys.path.insert(0, " +
      JSON.stringify(ROOT) +
      ")\n" +
      "for name in " +
      JSON.stringify(modules) +
      ": importlib.import_module(name)\n",
  );
}

// Python's start-up (the interpreter, the standard library, the engine and bots
// imported) costs seconds of CPU; a memory snapshot taken after it, kept in the
// service worker's versioned cache, brings later starts down to a fraction.
// A snapshot that does not restore is dropped and Python starts normally.
async function startPython(message, sources) {
  const cache =
    self.caches && message.cacheName
      ? await self.caches.open(message.cacheName).catch(function () {
          return null;
        })
      : null;
  const key = new URL(message.engineUrl + "&snapshot=1", self.location.href).href;
  const kept = cache ? await cache.match(key) : null;
  if (kept) {
    try {
      pyodide = await self.loadPyodide({ indexURL: message.pyodideUrl, _loadSnapshot: await kept.arrayBuffer() });
      writeSources(sources); // for anything imported later
      importAll(sources);
      return true;
    } catch (_error) {
      pyodide = null;
      await cache.delete(key);
    }
  }
  pyodide = await self.loadPyodide({ indexURL: message.pyodideUrl, _makeSnapshot: Boolean(cache) });
  writeSources(sources);
  importAll(sources);
  if (cache) {
    try {
      const snapshot = pyodide.makeMemorySnapshot();
      cache
        .put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }))
        .catch(function () {});
    } catch (_error) {
      // No snapshot this time: the next start is a normal one too.
    }
  }
  return false;
}

async function boot(message) {
  let stage = "download";
  try {
    const urls = message.files.map(function (name) {
      return message.pyodideUrl + name;
    });
    const sizes = message.sizes || {};
    let total = urls.reduce(function (sum, url) {
      return sum + (sizes[url] || 0);
    }, 0);
    let loaded = 0;
    post({ type: "progress", stage: stage, loaded: 0, total: total });
    const engine = fetch(message.engineUrl).then(function (response) {
      if (!response.ok) throw new Error(message.engineUrl + ": HTTP " + response.status);
      return response.json();
    });
    await Promise.all(
      urls.map(function (url) {
        return download(url, function (bytes) {
          loaded += bytes;
          if (loaded > total) total = loaded;
          post({ type: "progress", stage: stage, loaded: loaded, total: total });
        });
      }),
    );
    const sources = await engine;
    stage = "start";
    post({ type: "progress", stage: stage, loaded: total, total: total });
    importScripts(message.pyodideUrl + "pyodide.js");
    const fromSnapshot = await startPython(message, sources);
    stage = "engine";
    post({ type: "progress", stage: stage, loaded: total, total: total });
    api = pyodide.pyimport("games.frames.offline_practice");
    post({ type: "ready", fromSnapshot: fromSnapshot });
  } catch (error) {
    post({ type: "failed", stage: stage, message: String(error?.message || error) });
  }
}

function call(name, args) {
  try {
    return JSON.parse(api[name].apply(null, args));
  } catch (error) {
    return { type: "error", code: "worker_failed", message: String(error?.message || error) };
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
    // A past daily deal also gives its dealer and its last hand (docs/daily.md).
    const args = [message.rules, message.level, message.seed, message.playerName, message.words];
    if (message.firstDealer !== undefined) args.push(message.firstDealer, message.lastHand);
    post({ type: "frame", match: message.match, frame: call("start", args) });
  } else if (message.type === "play") {
    post({ type: "frame", match: message.match, frame: call("play", [message.action]) });
  } else if (message.type === "bot") {
    post({ type: "frame", match: message.match, frame: call("bot_play", []) });
  } else if (message.type === "record") {
    post({ type: "record", record: call("record", []) });
  }
};
