// Offline practice page: boots the web worker (Pyodide + the site's engine and
// bots, static/js/offline-worker.js), shows its progress, then plays a match:
// the player's clicks go to the worker, bot moves are asked for one at a time,
// and every frame (the live table's frame shape, docs/protocol.md) is drawn by
// the live table's own renderer (static/js/table-view.js): the same seats, drawn
// cards, trick hold and keyboard. Nothing here talks to the server, but for
// fetching a past day's daily deals (their seeds and dealers) when asked to replay
// them: the server refuses today's, which are played online, once, for the ranking.
(function () {
  "use strict";
  const root = document.getElementById("offline-root");
  if (!root) return;
  const S = JSON.parse(document.getElementById("offline-strings").textContent);
  const params = new URLSearchParams(window.location.search);
  // The pause before each bot move, so people can follow the play (?pace=0 in tests).
  const pace = params.has("pace") ? Math.max(0, Number(params.get("pace")) || 0) : 700;
  const PLAYER = 0;

  const form = document.getElementById("offline-form");
  const startButton = document.getElementById("offline-start");
  const setup = document.getElementById("offline-setup");
  const loading = document.getElementById("offline-loading");
  const progress = document.getElementById("offline-progress");
  const progressLabel = document.getElementById("offline-progress-label");
  const progressText = document.getElementById("offline-progress-text");
  const errorLine = document.getElementById("offline-error");
  const tableRoot = document.getElementById("offline-table");
  const offlineNote = document.getElementById("offline-note");
  const tableBox = document.getElementById("offline-board");
  const endActions = document.getElementById("offline-end");
  // The daily deal's region (daily/templates/daily/offline_section.html): absent
  // when the daily app is not installed.
  const dailyPanel = document.getElementById("daily-past");
  const dailyForm = document.getElementById("daily-past-form");
  const dailyDate = document.getElementById("daily-past-date");
  const dailyError = document.getElementById("daily-past-error");
  // What is being replayed (a past daily deal), above the board.
  const dailyMark = document.getElementById("offline-mark");
  const againButton = document.getElementById("offline-again");
  const changeButton = document.getElementById("offline-change");
  const againText = againButton.textContent;
  const changeText = changeButton.textContent;
  // A past day's daily deals being replayed, from the server's deals.json:
  // {date, rules, lastHand, deals: [{number, seed, dealer}], at: the deal at hand}.
  let dailySet = null;
  let pendingDaily = false;
  againButton.addEventListener("click", function () {
    again();
  });
  changeButton.addEventListener("click", function () {
    backToSetup();
  });

  // Figures for the benchmark (bench/offline_bench.py) and the tests.
  const stats = {
    ready: false,
    bootMs: null,
    stages: {},
    dealtMs: null,
    dealtAt: null,
    botMs: [],
    botRoundTripMs: [],
    botLevel: null,
    over: false,
    frames: 0,
  };
  window.CuatrolaOffline = stats;
  const bootStarted = performance.now();
  // loading → ready → playing → over (or failed): for styles and tests.
  function setState(state) {
    root.dataset.state = state;
  }
  setState("loading");

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  function showError(message) {
    errorLine.textContent = message;
    errorLine.hidden = !message;
  }

  function showOffline() {
    offlineNote.hidden = navigator.onLine;
  }
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);
  showOffline();

  // ------------------------------------------------------------------ worker
  const worker = new Worker(root.dataset.workerUrl);
  let lastFrame = null;
  let botTimer = null;
  let startedAt = null;
  let botAskedAt = 0;
  let matchNo = 0;
  // Start clicked while the engine is still loading: the match starts once it is ready.
  let pendingStart = false;
  let table = null;

  function megabytes(bytes) {
    return (bytes / 1048576).toFixed(1);
  }

  worker.onmessage = function (event) {
    const message = event.data;
    if (message.type === "progress") {
      if (!(message.stage in stats.stages)) stats.stages[message.stage] = Math.round(performance.now() - bootStarted);
      const stage = S.stages[message.stage] || "";
      progressLabel.textContent = stage;
      if (message.stage === "download" && message.total) {
        progress.value = Math.round((100 * message.loaded) / message.total);
        progressText.textContent = fill(S.downloaded, {
          loaded: megabytes(message.loaded),
          total: megabytes(message.total),
        });
      } else {
        progress.value = message.stage === "start" ? 90 : 97;
        progressText.textContent = "";
      }
    } else if (message.type === "ready") {
      stats.ready = true;
      stats.fromSnapshot = message.fromSnapshot;
      stats.bootMs = performance.now() - bootStarted;
      setState("ready");
      progress.value = 100;
      loading.hidden = true;
      startButton.disabled = false;
      startButton.removeAttribute("aria-busy");
      if (pendingDaily && dailySet) {
        pendingDaily = false;
        beginDaily();
      } else if (pendingStart || params.get("autostart") !== null) begin();
    } else if (message.type === "failed") {
      setState("failed");
      loading.hidden = true;
      showError(fill(S.failed, { reason: message.message }));
    } else if (message.type === "frame") {
      if (message.match !== matchNo) return; // from a match the player has left
      const frame = message.frame;
      if (frame.bot) {
        const roundTrip = performance.now() - botAskedAt;
        stats.botRoundTripMs.push(Math.round(roundTrip * 10) / 10);
        // The bot thought while the pause ran: show its move when the pause is over.
        const wait = pace - roundTrip;
        if (wait > 0) {
          botTimer = window.setTimeout(function () {
            onFrame(frame);
          }, wait);
          return;
        }
      }
      onFrame(frame);
    }
  };
  worker.onerror = function (event) {
    setState("failed");
    loading.hidden = true;
    showError(fill(S.failed, { reason: event.message || "" }));
  };
  worker.postMessage({
    type: "boot",
    pyodideUrl: root.dataset.pyodideUrl,
    engineUrl: root.dataset.engineUrl,
    cacheName: "cuatrola-offline-" + root.dataset.version,
    files: S.files,
    sizes: S.sizes,
  });

  // ------------------------------------------------------------------ play
  function botToPlay(frame) {
    return frame.table.status === "playing" && frame.view.to_play !== PLAYER;
  }

  function onFrame(frame) {
    if (frame.type === "error") {
      if (table) table.showError(S.errors[frame.code] || frame.message);
      else showError(S.errors[frame.code] || frame.message);
      return;
    }
    showError("");
    stats.frames += 1;
    if (frame.type === "state") {
      stats.dealtMs = performance.now() - startedAt;
      stats.dealtAt = performance.now(); // since the navigation started
      setState("playing");
    }
    if (frame.bot) stats.botMs.push(frame.bot.ms);
    lastFrame = frame;
    table.render(frame);
    const finished = frame.table.status === "finished";
    endActions.hidden = !finished;
    if (finished && !stats.over) document.getElementById("offline-again").focus();
    if (finished) {
      stats.over = true;
      setState("over");
      return;
    }
    if (botToPlay(frame)) scheduleBot();
  }

  function scheduleBot() {
    window.clearTimeout(botTimer);
    botAskedAt = performance.now();
    worker.postMessage({ type: "bot", match: matchNo });
  }

  function onAction(action) {
    if (!lastFrame || botToPlay(lastFrame)) {
      table.showError(S.table_view.words.refusals.not_your_turn);
      return;
    }
    worker.postMessage({ type: "play", action: action, match: matchNo });
  }

  function newSeed() {
    const fixed = params.get("seed");
    if (fixed !== null && /^\d{1,15}$/.test(fixed)) return Number(fixed);
    return window.crypto.getRandomValues(new Uint32Array(1))[0];
  }

  // A new renderer for each match (its hand summaries and last trick are that match's).
  function mountTable() {
    if (table?.destroy) table.destroy();
    const stage = document.createElement("div");
    stage.id = "table-view";
    tableBox.replaceChildren(stage);
    table = window.CuatrolaTable.mount(stage, {
      strings: S.table_view,
      onAction: onAction,
      holdMs: window.cuatrolaTrickHoldMs, // a page may set its own pace (tests: 0)
    });
  }

  function begin() {
    dailySet = null;
    dailyMark.hidden = true;
    againButton.textContent = againText;
    changeButton.textContent = changeText;
    pendingStart = false;
    const rules = form.elements.rules.value;
    const level = form.elements.bot_level.value;
    const seed = newSeed();
    stats.botLevel = level;
    stats.botMs = [];
    stats.botRoundTripMs = [];
    stats.over = false;
    window.clearTimeout(botTimer);
    mountTable();
    setup.hidden = true;
    if (dailyPanel) dailyPanel.hidden = true; // the table takes the screen
    tableRoot.hidden = false;
    document.body.classList.add("page-table", "page-offline-table");
    startedAt = performance.now();
    matchNo += 1;
    endActions.hidden = true;
    worker.postMessage({
      type: "start",
      rules: rules,
      level: level,
      seed: seed,
      playerName: S.you,
      words: JSON.stringify(S.table_view.words),
      match: matchNo,
    });
  }

  function again() {
    window.clearTimeout(botTimer);
    if (dailySet) {
      // "Next deal", or the same deal again after the last one.
      if (dailySet.at < dailySet.deals.length - 1) dailySet.at += 1;
      beginDaily();
      return;
    }
    begin();
  }

  // ------------------------------------------------------------------ past daily deals
  // Yesterday in Madrid, the last day whose deals the server gives out.
  function madridYesterday() {
    const parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: "Europe/Madrid",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date());
    const today = new Date(parts + "T12:00:00Z");
    today.setUTCDate(today.getUTCDate() - 1);
    return today.toISOString().slice(0, 10);
  }
  if (dailyDate) {
    dailyDate.max = madridYesterday();
    if (!dailyDate.value || dailyDate.value > dailyDate.max) dailyDate.value = dailyDate.max;
  }

  function showDailyError(message) {
    dailyError.textContent = message;
    dailyError.hidden = !message;
  }

  function beginDaily() {
    const deal = dailySet.deals[dailySet.at];
    const last = dailySet.at === dailySet.deals.length - 1;
    pendingStart = false;
    stats.botLevel = "hard";
    stats.botMs = [];
    stats.botRoundTripMs = [];
    stats.over = false;
    window.clearTimeout(botTimer);
    mountTable();
    setup.hidden = true;
    if (dailyPanel) dailyPanel.hidden = true;
    tableRoot.hidden = false;
    dailyMark.hidden = false;
    dailyMark.textContent = fill(S.daily.mark, { date: dailySet.date, n: deal.number, of: dailySet.deals.length });
    againButton.textContent = last
      ? S.daily.again
      : fill(S.daily.next, { n: deal.number + 1, of: dailySet.deals.length });
    changeButton.textContent = S.daily.back;
    document.body.classList.add("page-table", "page-offline-table");
    startedAt = performance.now();
    matchNo += 1;
    endActions.hidden = true;
    // The deal as the server dealt it: its seed (a decimal string: 62 bits), its
    // dealer and its last hand, all from the server's deals.json.
    worker.postMessage({
      type: "start",
      rules: dailySet.rules,
      level: "hard",
      seed: String(deal.seed),
      playerName: S.you,
      words: JSON.stringify(S.table_view.words),
      firstDealer: deal.dealer,
      lastHand: dailySet.lastHand,
      match: matchNo,
    });
  }

  if (dailyForm) {
    dailyForm.addEventListener("submit", function (event) {
      event.preventDefault();
      showDailyError("");
      const day = dailyDate.value;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
        showDailyError(S.daily.bad_date);
        return;
      }
      const url = dailyForm.dataset.url.replace("2000-01-01", day);
      fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (response) {
          return response.json().then(function (body) {
            return { ok: response.ok, body: body };
          });
        })
        .then(function (reply) {
          if (!reply.ok) {
            showDailyError(reply.body.message || S.daily.bad_date);
            return;
          }
          const body = reply.body;
          dailySet = { date: body.date, rules: body.rules, lastHand: body.last_hand, deals: body.deals, at: 0 };
          if (stats.ready) beginDaily();
          else pendingDaily = true; // starts once the engine is ready
        })
        .catch(function () {
          showDailyError(S.daily.network);
        });
    });
  }

  function backToSetup() {
    window.clearTimeout(botTimer);
    matchNo += 1;
    dailySet = null;
    dailyMark.hidden = true;
    tableRoot.hidden = true;
    setup.hidden = false;
    if (dailyPanel) dailyPanel.hidden = false;
    document.body.classList.remove("page-table", "page-offline-table");
    setState("ready");
    startButton.focus();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (stats.ready) {
      begin();
      return;
    }
    if (root.dataset.state === "failed") return;
    pendingStart = true;
    startButton.disabled = true;
    startButton.setAttribute("aria-busy", "true");
  });
})();
