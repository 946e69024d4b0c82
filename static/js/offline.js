// Offline practice page: boots the web worker (Pyodide + the site's engine and
// bots, static/js/offline-worker.js), shows its progress, then plays a match:
// the player's clicks go to the worker, bot moves are asked for one at a time,
// and every frame (the live table's frame shape, docs/protocol.md) is drawn by
// the table renderer. Nothing here talks to the server.
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
  document.getElementById("offline-again").addEventListener("click", function () { again(); });
  document.getElementById("offline-change").addEventListener("click", function () { backToSetup(); });

  // Figures for the benchmark (bench/offline_bench.py) and the tests.
  const stats = (window.CuatrolaOffline = {
    ready: false, bootMs: null, stages: {}, dealtMs: null, dealtAt: null, botMs: [], botRoundTripMs: [], botLevel: null, over: false, frames: 0,
  });
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
          loaded: megabytes(message.loaded), total: megabytes(message.total),
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
      if (pendingStart || params.get("autostart") !== null) begin();
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
          botTimer = window.setTimeout(function () { onFrame(frame); }, wait);
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
      showError(S.errors[frame.code] || frame.message);
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
    // The seats' names are the page's (online they are the players' usernames).
    frame.table.seats.forEach(function (seat) { seat.name = S.seat_names[seat.position]; });
    table.render(frame);
    const finished = frame.table.status === "finished";
    endActions.hidden = !finished;
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
    if (!lastFrame || botToPlay(lastFrame)) return;
    worker.postMessage({ type: "play", action: action, match: matchNo });
  }

  function newSeed() {
    const fixed = params.get("seed");
    if (fixed !== null && /^\d{1,15}$/.test(fixed)) return Number(fixed);
    return window.crypto.getRandomValues(new Uint32Array(1))[0];
  }

  function begin() {
    pendingStart = false;
    const rules = form.elements.rules.value;
    const level = form.elements.bot_level.value;
    stats.botLevel = level;
    stats.botMs = [];
    stats.botRoundTripMs = [];
    stats.over = false;
    if (!table) {
      // The live table's renderer (static/js/table-view.js) when the page has it.
      table = window.CuatrolaTable && S.table_view
        ? window.CuatrolaTable.mount(tableBox, { strings: S.table_view, onAction: onAction })
        : fallbackMount(tableBox, { strings: S.table, onAction: onAction });
    }
    setup.hidden = true;
    tableRoot.hidden = false;
    startedAt = performance.now();
    matchNo += 1;
    window.clearTimeout(botTimer);
    endActions.hidden = true;
    worker.postMessage({ type: "start", rules: rules, level: level, seed: newSeed(), match: matchNo });
  }

  function again() {
    window.clearTimeout(botTimer);
    begin();
  }

  function backToSetup() {
    window.clearTimeout(botTimer);
    matchNo += 1;
    tableRoot.hidden = true;
    setup.hidden = false;
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

  // ------------------------------------------------------------------ stop-gap table
  // A plain renderer for the same frames, used while the shared table renderer
  // (static/js/table-view.js, window.CuatrolaTable) is not on the page.
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) if (child) node.append(child);
    return node;
  }

  function fallbackMount(element, options) {
    const T = options.strings;

    // The drawn deck (static/js/cards.js); `label` "" when a button names the card.
    function cardNode(code, size, label) {
      const deck = window.CuatrolaCards;
      if (deck && deck.face) return deck.face(code, { size: size, label: label });
      return el("span", { class: "card card-" + code.slice(-1), lang: "es", text: T.cards[code] });
    }

    let seatNames = ["", "", "", ""];
    function seatName(seat) {
      return seatNames[seat];
    }

    function render(frame) {
      seatNames = frame.table.seats.map(function (seat) { return seat.name; });
      const view = frame.view;
      const hand = view.hand;
      const finished = frame.table.status === "finished";
      const legal = hand.legal_actions || [];
      const ours = PLAYER % 2;
      const nodes = [];
      nodes.push(el("section", { class: "scoreboard", "aria-label": T.score }, [
        el("p", { class: "score" }, [
          el("span", { text: T.us + ": " }), el("strong", { "data-testid": "score-us", text: String(view.scores[ours]) }),
          el("span", { text: " · " + T.them + ": " }), el("strong", { text: String(view.scores[1 - ours]) }),
          el("span", { text: " · " + fill(T.to_target, { target: view.target }) }),
        ]),
        el("p", { text: fill(T.hand_no, { n: view.hand_no }) }),
        finished ? null : el("p", { class: "turn", "aria-live": "polite" }, [
          legal.length ? el("strong", { text: T.your_turn }) : el("span", { text: fill(T.to_play, { name: seatName(view.to_play) }) }),
        ]),
      ]));
      if (finished) {
        const won = view.winner === ours;
        nodes.push(el("section", { class: "result", role: "status" }, [
          el("h2", { text: won ? T.won : T.lost }),
          el("p", { text: fill(T.final_score, { us: view.scores[ours], them: view.scores[1 - ours] }) }),
        ]));
      }
      const history = view.history || [];
      if (history.length && history[history.length - 1].result) {
        const last = history[history.length - 1].result;
        const points = last.match_points;
        nodes.push(el("section", { class: "hand-summary" }, [
          el("h2", { text: fill(T.hand_result, { n: history[history.length - 1].hand_no }) }),
          el("p", { text: last.scoring_pair === ours ? fill(T.points_us, { points: points }) : fill(T.points_them, { points: points }) }),
        ]));
      }
      const bids = {};
      for (const b of hand.bids || []) bids[b.seat] = T.bids[b.bid] || b.bid;
      const played = {};
      for (const p of hand.trick.plays || []) played[p.seat] = p.card;
      const seats = [];
      const where = ["bottom", "right", "top", "left"];
      for (let seat = 0; seat < 4; seat++) {
        const turn = !finished && view.to_play === seat;
        seats.push(el("section", { class: "seat seat-" + where[(seat - PLAYER + 4) % 4] + (turn ? " seat-turn" : ""), "aria-label": seatName(seat) }, [
          el("h2", { class: "seat-name", text: seatName(seat) }),
          el("p", { class: "seat-facts" }, [
            hand.dealer === seat ? el("span", { class: "tag", text: T.dealer }) : null,
            hand.declarer === seat && hand.contract ? el("span", { class: "tag tag-strong", text: T.bids[hand.contract] }) : null,
            hand.sitting_out === seat ? el("span", { class: "tag", text: T.sits_out }) : null,
            bids[seat] ? el("span", { class: "tag", text: T.bid + ": " + bids[seat] }) : null,
          ]),
          el("p", { class: "seat-counts", text: T.cards_n[hand.hand_sizes[seat]] + " · " + T.tricks_n[hand.tricks_won[seat]] }),
          played[seat] ? cardNode(played[seat], "trick") : null,
        ]));
      }
      const trump = hand.trump && hand.trump.card;
      seats.push(el("section", { class: "trick", "aria-label": T.trick }, [
        trump ? el("p", { class: "trump" }, [el("span", { text: T.trump + ": " }), cardNode(trump, "small")]) : null,
      ]));
      nodes.push(el("div", { class: "felt" }, seats));
      if (!finished) {
        const mine = el("section", { class: "my-hand", "aria-labelledby": "offline-hand-title" }, [
          el("h2", { id: "offline-hand-title", text: T.your_hand }),
        ]);
        const bidWords = legal.filter(function (a) { return a in T.bids; });
        if (bidWords.length) {
          mine.append(el("div", { class: "bids", role: "group", "aria-label": T.your_bid }, bidWords.map(function (word) {
            return el("button", { type: "button", class: "bid-button", "data-action": word, text: T.bids[word] });
          })));
        }
        mine.append(el("ul", { class: "hand-cards" }, (hand.hand || []).map(function (code) {
          const playable = legal.indexOf(code) >= 0;
          const button = el("button", {
            type: "button", class: "card-button", "data-action": code, "data-card": code,
            disabled: !playable, "aria-label": T.cards[code],
          }, [cardNode(code, "hand", "")]);
          return el("li", {}, [button]);
        })));
        nodes.push(mine);
      }
      const focused = document.activeElement && element.contains(document.activeElement);
      element.replaceChildren.apply(element, nodes);
      if (focused) {
        const first = element.querySelector("button:not(:disabled)");
        if (first) first.focus();
      }
    }

    element.addEventListener("click", function (event) {
      const button = event.target.closest("button[data-action]");
      if (!button || button.disabled) return;
      const action = button.dataset.action;
      options.onAction(action);
    });
    return { render: render };
  }
})();
