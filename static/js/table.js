// Table page transport: one websocket per tab (docs/protocol.md). Each frame
// carries this seat's view; the renderer (table-view.js) draws the table from it,
// so a move costs no HTTP request. This file only moves frames: connect,
// reconnect, keep `seq` in order, send plays with the version drawn, ask for the
// whole state after a silence in a live match, and stop retrying when the server
// refuses the socket for good (REFUSED below: docs/protocol.md's close codes whose
// page "says so and stops"), saying why.
//
// Before a match starts (a friends room being set up) the page shows the
// server-rendered room with its forms; a frame then reloads that region once
// (rooms change rarely, never per move). The first frame with a match hands the
// page to the renderer.
(function () {
  "use strict";
  const root = document.getElementById("table-root");
  if (!root || !window.CuatrolaTable) return;
  const strings = JSON.parse(document.getElementById("table-strings").textContent);
  const first = JSON.parse(document.getElementById("table-frame").textContent);
  const tableId = root.dataset.table;
  const statusLine = document.getElementById("connection-status");
  const stage = document.getElementById("table-view");
  // Refusals that another attempt would only repeat: the page says why and stops
  // (docs/protocol.md, close codes; tests/games/test_close_codes.py keeps the two alike).
  const REFUSED = [4401, 4403, 4404, 4433, 4434, 4435, 4436, 4437];
  const TOO_MANY_SOCKETS = [4430, 4431]; // this user's, or this address's (docs/protocol.md)
  const TOO_BIG = 1009; // the server's own message-size limit (docs/protocol.md)
  const RESTARTING = 4500; // the web process restarts: reconnect now (to another one)
  const RESTART_RETRY_MS = 30000;
  const RETRY_SOON = 4503; // the database did not answer as the socket opened
  // A live match is never silent for long (a move every few seconds, a turn's end
  // within 30 s): after this long without a frame the page asks for the whole
  // state, so a lost frame costs seconds, not a turn; after as long again with no
  // answer the socket is taken for dead and opened anew (docs/protocol.md).
  const RESYNC_AFTER_MS = 10000;
  let quiet = null; // the silence timer
  let asked = false; // a `sync` went unanswered so far
  let live = false; // the last frame drawn was of a match in play
  let tooBigAt = 0; // when a socket was last closed for a message too big
  let socket = null;
  let lastSeq = 0;
  let version = 0;
  let lastPlay = null; // the last play sent: sent again on a `retry` frame
  // A play not yet answered: made while no socket was open (the page still opening
  // it, or reconnecting), or sent on a socket that closed before the answer. The
  // first state of the next socket sends it, if the match has not moved meanwhile.
  let unanswered = null;
  let reopened = false; // a socket opened and its first state is still to come
  let delay = 500;
  // After a restart's close (4500): until then, retries stay a second apart.
  let restartingUntil = 0;
  let sessionWasOpen = false; // a socket of this page has been open at least once
  let view = null;
  let roomLoading = false;
  let roomAgain = false;
  let _preload = []; // the deck's images, kept so the browser keeps them

  function text(node, value) {
    if (node) node.textContent = value;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // The drawn deck (cards.js), from assets that name no card (see games/frames/renderer_texts.py).
  function configureDeck(deck) {
    if (!window.CuatrolaCards || !deck) return;
    const faces = {};
    for (const suit of Object.keys(deck.faces)) {
      for (const rank of Object.keys(deck.faces[suit])) faces[rank + suit] = deck.faces[suit][rank];
    }
    window.CuatrolaCards.configure({
      faces: faces,
      back: deck.back,
      backName: deck.backName,
      sizes: deck.sizes,
      names: {},
    });
    // Every face fetched once, after the page has loaded (never delaying it): a card
    // first seen mid-match then costs no request.
    const fetchAll = function () {
      _preload = Object.values(faces)
        .concat([deck.back])
        .map(function (url) {
          const image = new Image();
          image.src = url;
          return image;
        });
    };
    if (document.readyState === "complete") fetchAll();
    else window.addEventListener("load", fetchAll, { once: true });
  }

  function startRenderer() {
    if (view) return;
    configureDeck(strings.deck);
    const board = document.getElementById("board");
    if (board) board.remove();
    stage.hidden = false;
    view = window.CuatrolaTable.mount(stage, {
      strings: strings,
      holdMs: window.cuatrolaTrickHoldMs, // a page may set its own pace (tests: 0)
      forms: {
        csrf: root.dataset.csrf,
        again: root.dataset.againUrl,
        leave: root.dataset.leaveUrl,
        lobby: root.dataset.lobbyUrl,
        follow: root.dataset.followUrl ? { name: root.dataset.follow, url: root.dataset.followUrl } : null,
      },
      onAction: function (action) {
        lastPlay = { type: "play", action: action, version: version };
        unanswered = lastPlay;
        send(lastPlay); // else the next socket's first state sends it (the page says "sending")
      },
    });
  }

  // The waiting room is the server's HTML (its forms post without JavaScript).
  function reloadRoom() {
    const board = document.getElementById("board");
    if (!board || !window.htmx) return;
    if (board.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) {
      // Someone is filling a room form: redraw once they have sent it.
      roomAgain = true;
      return;
    }
    if (roomLoading) {
      roomAgain = true;
      return;
    }
    roomLoading = true;
    const kept = choicesMade(board);
    window.htmx.ajax("GET", root.dataset.boardUrl, { target: "#board", swap: "outerHTML" }).finally(function () {
      roomLoading = false;
      restoreChoices(kept);
      if (roomAgain) {
        roomAgain = false;
        reloadRoom();
      }
    });
  }

  // A redraw of the room must not undo a choice the user has made but not sent yet
  // (a seat picked in a list): those values are carried over to the new HTML.
  function choicesMade(board) {
    const kept = {};
    board.querySelectorAll("select[id], input[type=text][id]").forEach(function (field) {
      const changed =
        field.tagName === "SELECT"
          ? !field.options[field.selectedIndex].defaultSelected
          : field.value !== field.defaultValue;
      if (changed) kept[field.id] = field.value;
    });
    return kept;
  }

  function restoreChoices(kept) {
    for (const id of Object.keys(kept)) {
      const field = document.getElementById(id);
      if (field) field.value = kept[id];
    }
  }

  // Room redraws can cross (a form's answer, a socket-triggered reload): an answer
  // older than the room on screen is not drawn.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const board = document.getElementById("board");
    if (!board || event.detail.target !== board) return;
    const found = /data-seq="(\d+)"/.exec(event.detail.xhr.responseText || "");
    if (found && parseInt(found[1], 10) < parseInt(board.dataset.seq, 10)) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterRequest", function () {
    if (roomAgain && !roomLoading) {
      roomAgain = false;
      reloadRoom();
    }
  });

  // A payout or a refund: the navigation's balance changes in place.
  function updateWallet(balance) {
    const link = document.getElementById("nav-wallet");
    if (!link || !balance || typeof balance.coins !== "number") return;
    const level = balance.level !== undefined ? balance.level : link.dataset.level;
    link.dataset.level = level;
    link.textContent = strings.wallet.replace("{coins}", balance.coins).replace("{level}", level);
  }

  // Any frame from the server: the silence, if any, is over.
  function heard() {
    asked = false;
    window.clearTimeout(quiet);
    quiet = live ? window.setTimeout(silence, RESYNC_AFTER_MS) : null;
  }

  function silence() {
    quiet = null;
    if (!live || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (asked) {
      socket.close(); // no answer either: reconnect (the close handler does)
      return;
    }
    asked = send({ type: "sync" });
    quiet = window.setTimeout(silence, RESYNC_AFTER_MS);
  }

  function onFrame(frame) {
    if (frame.type === "state" || frame.type === "update") {
      if (frame.seq < lastSeq) return; // stale: a later frame is already drawn
      live = Boolean(frame.table && frame.table.status === "playing");
      if (frame.type === "update" && lastSeq && frame.seq > lastSeq + 1) {
        send({ type: "sync" }); // a gap: the whole state follows
      }
      lastSeq = frame.seq;
      version = frame.version;
      talkState(frame);
      const you = frame.result?.you;
      if (you?.balance) updateWallet(you.balance);
      if (frame.view) {
        startRenderer();
        view.render(frame);
        sendUnanswered(frame);
        // A region of the mode's own (table_panel_url) redraws after every move.
        document.dispatchEvent(new CustomEvent("table-frame", { detail: { version: frame.version } }));
      } else if (!view) {
        const board = document.getElementById("board");
        if (!board || String(frame.seq) !== board.dataset.seq) reloadRoom();
      }
    } else if (frame.type === "retry") {
      retry(frame);
    } else if (frame.type === "balance") {
      updateWallet(frame);
    } else if (frame.type === "watchers") {
      watchersCount(frame.count);
    } else if (frame.type === "talk") {
      talkLine(frame);
    } else if (frame.type === "talk_log") {
      frame.lines.forEach(talkLine); // what was said before this socket opened
    } else if (frame.type === "muted") {
      talkMuted(frame);
    } else if (frame.type === "error" && talk && TALK_ERRORS.indexOf(frame.code) >= 0) {
      text(talkError, frame.message);
    } else if (frame.type === "error") {
      unanswered = null; // refused: the page says why
      if (view) view.showError(frame.message);
      else text(document.getElementById("socket-error"), frame.message);
    }
  }

  // A play still unanswered when a socket opened goes on it once its first state
  // shows the same version (a play names its version, so it can never count twice);
  // a newer state means the match moved on (the play, or a turn's end): it is dropped.
  function sendUnanswered(frame) {
    if (unanswered && frame.version !== unanswered.version) unanswered = null;
    if (!reopened || frame.type !== "state") return;
    reopened = false;
    if (unanswered && send(unanswered)) view.showSending();
  }

  // The server could not handle a message (its database did not answer): send it
  // again after the delay it names. A play goes again only if no newer state came
  // meanwhile; it names its version, so one that did commit is refused as stale.
  function retry(frame) {
    const after = (Number.isInteger(frame.after_ms) ? frame.after_ms : 1000) + Math.random() * 500;
    if (frame.of === "play" && lastPlay) {
      const again = lastPlay;
      window.setTimeout(function () {
        if (lastPlay === again && version === again.version) send(again);
      }, after);
    } else if (frame.of === "sync") {
      window.setTimeout(function () {
        send({ type: "sync" });
      }, after);
    }
  }

  // How many watch (docs/watching.md): players and watchers see the count.
  const watchBar = document.getElementById("watch-bar");
  const watchersLine = document.getElementById("watchers-count");
  function watchersCount(count) {
    if (!watchersLine || !Number.isInteger(count) || count < 0) return;
    const forms = strings.watching_n || [];
    if (!forms.length) return;
    watchersLine.textContent = forms[Math.min(count, forms.length - 1)].replace("{n}", String(count));
    watchersLine.hidden = count === 0;
    if (watchBar) watchBar.hidden = count === 0 && !watchBar.querySelector(".watching-badge");
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(scheme + "://" + window.location.host + "/ws/tables/" + tableId + "/");
    socket.addEventListener("open", function () {
      sessionWasOpen = true;
      reopened = true;
      root.dataset.socket = "open"; // a play sent now reaches the server (tests wait on it)
      delay = 500;
      restartingUntil = 0;
      heard();
      // After a 1009 close, its explanation stays a few seconds once reconnected.
      const left = tooBigAt ? 8000 - (Date.now() - tooBigAt) : 0;
      if (left > 0) {
        window.setTimeout(function () {
          if (Date.now() - tooBigAt >= 8000) text(statusLine, "");
        }, left);
      } else text(statusLine, "");
      root.classList.remove("offline");
    });
    socket.addEventListener("message", function (event) {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (_error) {
        send({ type: "sync" }); // a frame we cannot read: ask for the whole state
        return;
      }
      onFrame(frame);
      heard();
    });
    socket.addEventListener("close", function (event) {
      window.clearTimeout(quiet);
      quiet = null;
      root.dataset.socket = "closed";
      root.classList.add("offline");
      // 4401 on a socket that was open: the session ended (logged out, or the password
      // changed). Reloading shows the table again, or the log-in page if signed out.
      if (event.code === 4401 && sessionWasOpen) {
        window.location.reload();
        return;
      }
      if (REFUSED.indexOf(event.code) >= 0) {
        // Final: no other attempt; the reason replaces "reconnecting".
        root.dataset.socket = "refused";
        root.dataset.closeCode = String(event.code);
        text(statusLine, "");
        const reason = strings.refusals?.[event.code] || strings.refused;
        text(document.getElementById("socket-error"), reason);
        if (unanswered && view) view.showError(reason); // it will never be sent
        unanswered = null;
        return;
      }
      if (TOO_MANY_SOCKETS.indexOf(event.code) >= 0) {
        // Too many tabs or devices open at once: try again slowly, one may close.
        text(statusLine, strings.too_many_sockets);
        window.setTimeout(connect, 30000);
        return;
      }
      if (event.code === RESTARTING) {
        // A restart of this web process: reconnect at once (the front door sends the
        // socket to another process), spread over half a second so that a process's
        // tables do not all knock at the same instant.
        text(statusLine, strings.server_restarting);
        delay = 500;
        restartingUntil = Date.now() + RESTART_RETRY_MS;
        window.setTimeout(connect, Math.random() * 500);
        return;
      }
      if (Date.now() < restartingUntil) {
        // Still within a restart: the front door may not have seen yet which process
        // is back. Again every second or so, never backing off past the seat's
        // reconnection grace (PRESENCE_RECONNECT_GRACE_SECONDS).
        text(statusLine, strings.server_restarting);
        window.setTimeout(connect, 700 + Math.random() * 600);
        return;
      }
      if (event.code === RETRY_SOON) {
        // The database did not answer: again in a moment, as after a lost connection.
        text(statusLine, strings.offline);
        delay = 500;
        window.setTimeout(connect, 1000 + Math.random() * 1000);
        return;
      }
      if (event.code === TOO_BIG) {
        // Not a network fault: say what happened, then reconnect at once.
        tooBigAt = Date.now();
        text(statusLine, strings.too_big_closed);
        delay = 500;
      } else text(statusLine, strings.offline);
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }

  // Table talk (docs/protocol.md, "Table talk"): the fixed phrases at every table,
  // free text in a friends room while nobody holds cards. Every line is drawn with
  // textContent (free text is never HTML). The other people at the table are listed
  // once, each with one Mute toggle; after the match also Block and Report.
  const talk = document.getElementById("talk");
  const talkLog = document.getElementById("talk-log");
  const talkError = document.getElementById("talk-error");
  const talkForm = document.getElementById("talk-text");
  const talkPlayers = document.getElementById("talk-players");
  // A watcher's panel: the players' lines, and apart from them the watchers' own.
  const watchLog = document.getElementById("watch-log");
  const TALK_ERRORS = [
    "unknown_phrase",
    "free_text_not_here",
    "free_text_during_hand",
    "text_too_long",
    "talk_too_fast",
    "invalid_seat",
  ];
  const TALK_KEEP = 50; // lines kept on screen
  const talkStrings = strings.talk || {};
  const muted = {}; // seat -> true: muted by this player at this table
  // The seats muted before this page opened (kept by the server for the table's match).
  if (talk?.dataset.muted) {
    talk.dataset.muted.split(",").forEach(function (seat) {
      muted[Number(seat)] = true;
    });
  }
  let mySeat = null;
  let talkSeats = [];
  let playersDrawnFor = null;

  function fill(template, name) {
    return (template || "").replace("{name}", name);
  }

  // One toggle a person: its name stays "Mute <name>", aria-pressed says whether it is on.
  function muteButton(seat, name) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "talk-mute";
    button.dataset.seat = String(seat);
    button.textContent = fill(talkStrings.mute, name);
    showMuted(button, Boolean(muted[seat]));
    return button;
  }

  function showMuted(button, on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    const note = button.closest("li")?.querySelector(".talk-muted-note");
    if (note) note.hidden = !on;
  }

  function talkLine(frame) {
    const log = frame.watcher ? watchLog : talkLog;
    if (!log) return; // a watcher's line never shows among the players' lines
    // Each line once, in the order it was said: a socket that opens reads the table's
    // last lines (talk_log), some of which this page may have shown live already.
    const id = String(frame.id);
    if (log.querySelector('.talk-line[data-id="' + id + '"]')) return;
    const later = Array.from(log.children).find(function (line) {
      return Number(line.dataset.id) > frame.id;
    });
    const item = document.createElement("li");
    item.className = "talk-line";
    item.dataset.id = id;
    const who = document.createElement("strong");
    who.className = "talk-name";
    who.textContent = frame.name + ": ";
    const said = document.createElement("span");
    said.className = "talk-said";
    said.textContent = frame.text || "";
    if (frame.label && frame.label !== frame.text) said.setAttribute("aria-label", frame.label);
    item.append(who, said);
    log.insertBefore(item, later || null);
    while (log.children.length > TALK_KEEP) log.firstElementChild.remove();
    text(talkError, "");
  }

  // The other people seated here, each once: Mute (during and after the match), then
  // Block and Report once it is over. Nobody else human (bots only): no list at all.
  function drawPlayers(frame) {
    if (!talkPlayers) return;
    const over = Boolean(frame.result);
    const others = (frame.table.seats || []).filter(function (seat) {
      return seat.kind === "human" && seat.position !== mySeat && seat.name;
    });
    const key = JSON.stringify([
      over ? frame.table.match : null,
      others.map(function (seat) {
        return [seat.position, seat.name];
      }),
    ]);
    if (key === playersDrawnFor) return;
    playersDrawnFor = key;
    talkPlayers.replaceChildren();
    talkPlayers.hidden = others.length === 0;
    if (!others.length) return;
    const title = document.createElement("h3");
    title.className = "talk-subtitle";
    title.id = "talk-people-title";
    title.textContent = talkStrings.players || "";
    const list = document.createElement("ul");
    list.className = "talk-player-list";
    list.setAttribute("aria-labelledby", title.id);
    others.forEach(function (seat) {
      const item = document.createElement("li");
      item.dataset.seat = String(seat.position);
      const name = document.createElement("strong");
      name.className = "talk-player-name";
      name.textContent = seat.name;
      const note = document.createElement("span");
      note.className = "talk-muted-note";
      note.textContent = talkStrings.muted || "";
      const who = document.createElement("span");
      who.className = "talk-player-who";
      who.append(name, " ", note);
      item.append(who, muteButton(seat.position, seat.name));
      showMuted(item.querySelector(".talk-mute"), Boolean(muted[seat.position]));
      if (over) {
        // Blocking is offered where the site has it (the social app registers the address).
        // Blocking asks first: the social app's confirmation page, back here after.
        if (talk.dataset.blockUrl) {
          const block = document.createElement("a");
          block.className = "button button-danger talk-block";
          block.href =
            talk.dataset.blockUrl +
            "?username=" +
            encodeURIComponent(seat.name) +
            "&next=" +
            encodeURIComponent(window.location.pathname);
          block.textContent = fill(talkStrings.block, seat.name);
          item.append(block);
        }
        const report = document.createElement("a");
        report.href =
          talk.dataset.profileUrl.replace("USERNAME", encodeURIComponent(seat.name)) +
          "?match=" +
          encodeURIComponent(frame.table.match) +
          "#report";
        report.textContent = fill(talkStrings.report, seat.name);
        item.append(report);
      }
      list.append(item);
    });
    talkPlayers.append(title, list);
  }

  function talkState(frame) {
    if (!talk || !frame.table) return;
    mySeat = frame.seat;
    talkSeats = frame.table.seats || [];
    if (talkForm) talkForm.hidden = !(frame.table.mode === "friends" && frame.table.status !== "playing");
    drawPlayers(frame);
  }

  if (talk) {
    talk.addEventListener("click", function (event) {
      const phrase = event.target.closest(".talk-phrase");
      if (phrase) {
        if (!send({ type: "talk", phrase: phrase.dataset.phrase })) text(talkError, talkStrings.offline);
        return;
      }
      const mute = event.target.closest(".talk-mute");
      if (mute) {
        const seat = Number(mute.dataset.seat);
        send({ type: "mute", seat: seat, muted: !muted[seat] });
      }
    });
    if (talkForm) {
      talkForm.addEventListener("submit", function (event) {
        event.preventDefault();
        const input = talkForm.querySelector("input");
        const value = input.value.trim();
        if (!value) return;
        if (send({ type: "talk", text: value })) input.value = "";
        else text(talkError, talkStrings.offline); // kept in the box, to send once back
      });
    }
  }

  function talkMuted(frame) {
    if (frame.muted) muted[frame.seat] = true;
    else delete muted[frame.seat];
    const seat = talkSeats.find(function (s) {
      return s.position === frame.seat;
    });
    if (!seat || !talkPlayers) return;
    talkPlayers.querySelectorAll('.talk-mute[data-seat="' + frame.seat + '"]').forEach(function (button) {
      showMuted(button, frame.muted);
    });
  }

  // The server's first frame, drawn at once (the socket's own follows).
  onFrame(first);
  connect();
})();
