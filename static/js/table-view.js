// The table renderer: draws a seat's table from the JSON frames of
// docs/protocol.md ("state" and "update"). It knows nothing of sockets: whoever
// mounts it feeds it frames with render(frame) and receives the user's bids and
// cards through onAction(action). The live table (table.js) feeds it from the
// websocket; offline practice can feed it from anything that makes the same frames.
//
//   const table = CuatrolaTable.mount(element, {strings, onAction, forms});
//   table.render(frame); table.showError(message); table.showSending(); table.destroy();
//
// `strings` is games/frames/renderer_texts.py's dict (every text shown comes from it).
// `forms` (optional) gives {csrf, again, leave, lobby} URLs for the end-of-match
// and leave buttons; without it they are not drawn. Its `follow` ({name, url}, for
// a watcher following a friend) adds "watch their next table" to a watcher's end. `holdMs` (optional) is how
// long a completed trick stays in the centre (default about a second).
// A daily deal's frames carry `table.daily` (docs/daily.md): the table is marked
// "Reparto del día", leaving keeps the deal for later, and the end of the hand
// offers the next deal.
(function () {
  "use strict";

  const HOLD_MS = 1000; // a completed trick stays in the centre this long
  const MOVE_MS = 250; // the trick goes to its winner's side (animations ≤ 300 ms)
  const SUIT_SYMBOL = { o: "●", c: "♥", e: "⚔", b: "♣" };
  let rankMarks = {}; // a rank's corner mark, in the page's language (the game words' `rank_marks`)

  function reducedMotion() {
    return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const key of Object.keys(attrs)) {
        const value = attrs[key];
        if (value === null || value === undefined || value === false) continue;
        if (key === "class") node.className = value;
        else if (key === "text") node.textContent = value;
        else node.setAttribute(key, value === true ? "" : value);
      }
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child);
      }
    }
    return node;
  }

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  function toNode(drawn) {
    if (drawn instanceof Node) return drawn;
    const box = document.createElement("span");
    box.innerHTML = String(drawn);
    return box.firstElementChild || box;
  }

  // The one place cards are drawn: the shared deck (static/js/cards.js) when the
  // page has it, else a plain face with the rank and the suit's symbol.
  function cardFace(code, size, label) {
    const deck = window.CuatrolaCards;
    if (deck?.face) return toNode(deck.face(code, { size: size, label: label }));
    const suit = code.slice(-1);
    const rank = code.slice(0, -1);
    return el("span", { class: "tv-card tv-card--" + size + " tv-suit-" + suit, role: "img", "aria-label": label }, [
      el("span", { class: "tv-card-rank", "aria-hidden": "true", text: rankMarks[rank] || rank }),
      el("span", { class: "tv-card-suit", "aria-hidden": "true", text: SUIT_SYMBOL[suit] || suit }),
    ]);
  }

  function cardBack(size) {
    const deck = window.CuatrolaCards;
    if (deck?.back) return toNode(deck.back({ size: size, label: "" })); // a count names them
    return el("span", { class: "tv-card tv-card--" + size + " tv-card-back", "aria-hidden": "true" });
  }

  function playsOf(trick) {
    // Plays are {seat, card} objects (older views: [seat, card] pairs).
    return (trick?.plays ? trick.plays : []).map(function (p) {
      return Array.isArray(p) ? { seat: p[0], card: p[1] } : { seat: p.seat, card: p.card };
    });
  }

  function mount(root, options) {
    const S = options.strings;
    const W = S.words; // the game words (games/words/catalogue.py): bids, suits, ranks, cards, refusals
    rankMarks = W.rank_marks;
    const onAction = options.onAction || function () {};
    const forms = options.forms || null;
    const holdMs = typeof options.holdMs === "number" ? options.holdMs : HOLD_MS;

    let frame = null; // the frame drawn now
    let queue = [];
    let holding = false; // a completed trick is on show: later frames wait
    let showing = null; // the completed trick in the centre
    let lastTrick = null; // the last completed trick (can be looked at again)
    let peeking = false;
    let summary = null; // {number, result} of the hand just finished
    let sending = false;
    let wasMyTurn = false;
    let errorText = "";
    let fresh = []; // cards played in the frame being drawn (they land, animated)

    root.classList.add("tv");
    root.innerHTML = "";
    const bar = el("div", { class: "tv-bar" });
    const felt = el("div", { class: "tv-felt" });
    const mine = el("section", { class: "tv-mine", "aria-label": S.your_hand });
    const live = el("div", {
      class: "visually-hidden",
      role: "log",
      "aria-live": "polite",
      "aria-relevant": "additions",
    });
    // What the figures beside a name mean, written out under the table (a phone shows
    // no tooltip): each line marked with its badge's sign, shown while a seat shows it.
    const ratingLegend = el("p", { class: "tv-legend legend-line rating-legend" }, [
      el("span", { class: "legend-mark rating-mark", "aria-hidden": "true", text: "\u2605" }),
      el("span", { text: " " + S.rating_legend }),
    ]);
    const reputationLegend = el("p", { class: "tv-legend legend-line reputation-legend" }, [
      el("span", { class: "legend-mark reliability-mark", "aria-hidden": "true", text: "\u2713" }),
      el("span", { text: " " + S.reputation_legend }),
    ]);
    ratingLegend.hidden = true;
    reputationLegend.hidden = true;
    const legend = el("div", { class: "tv-legends" }, [ratingLegend, reputationLegend]);
    root.append(bar, felt, mine, legend, live);

    // --- Seats and names --------------------------------------------------

    function cardName(code) {
      return fill(W.card_names[code.slice(-1)], { rank: W.ranks[code.slice(0, -1)] });
    }

    function me() {
      if (frame && typeof frame.seat === "number") return frame.seat;
      const hand = frame?.view?.hand;
      return hand && typeof hand.seat === "number" ? hand.seat : null;
    }

    function where(seat) {
      const hand = frame.view?.hand;
      if (hand?.positions) return hand.positions[seat];
      return ["bottom", "right", "top", "left"][seat];
    }

    function seatInfo(seat) {
      return (frame.table.seats || [])[seat] || {};
    }

    function seatName(seat) {
      const info = seatInfo(seat);
      if (info.name) return info.name;
      return info.kind === "empty" ? S.empty_seat : S.bot;
    }

    // A pair as the scores name it: "Us" or "Them" for a player; for a watcher, who
    // sides with nobody, its two names (seats 1 and 3, or 2 and 4).
    function pairName(p, mine) {
      if (me() !== null) return p === mine ? S.us : S.them;
      return fill(S.pair_names, { a: seatName(p), b: seatName(p + 2) });
    }

    // A person's reputation beside their name, as the server-rendered board shows it
    // (games/reliability.html): the share of matches finished and the share finished
    // without a turn timed out, in percent, and a label that reads them out. Marked low
    // under the site's threshold (REPUTATION_LOW_PERCENT).
    function hasReputation(seat) {
      return typeof seatInfo(seat).reliability === "number";
    }

    function reliabilityBadge(seat) {
      const info = seatInfo(seat);
      const finished = info.reliability;
      if (typeof finished !== "number") return null;
      const onTime = typeof info.on_time === "number" ? info.on_time : finished;
      const low = finished < S.reputation_low || onTime < S.reputation_low;
      const values = { finished: finished, on_time: onTime };
      return el(
        "span",
        {
          class: "reliability tv-reliability" + (low ? " reliability-low" : ""),
          title: fill(S.reliability_title, values),
          "data-reliability": finished,
          "data-on-time": onTime,
        },
        [
          el("span", { "aria-hidden": "true", text: "\u2713\u2009" + finished + "%\u202f·\u202f" + onTime + "%" }),
          el("span", { class: "visually-hidden", text: fill(S.reliability_label, values) }),
        ],
      );
    }

    // The legend's lines for the figures some seat shows.
    function drawLegend() {
      reputationLegend.hidden = ![0, 1, 2, 3].some(hasReputation);
      ratingLegend.hidden = ![0, 1, 2, 3].some((seat) => {
        const rating = seatInfo(seat).rating;
        return Boolean(rating && typeof rating.value === "number");
      });
    }

    // A sentence about what a seat did. The player's own seat, where it is named
    // "You" (offline practice), takes the sentence written in the second person
    // (the strings' `<key>_you`): "You bid Solo", never "You bids Solo".
    function said(key, seat, values) {
      const own = seat === me() && seatInfo(seat).self_named && S[key + "_you"];
      return fill(own || S[key], Object.assign({ name: seatName(seat) }, values));
    }

    // The rating beside a name at rated tables: a person's ("?" while provisional) or a
    // bot level's fixed one. The figure is read out with its meaning (title and label).
    function ratingBadge(seat) {
      const rating = seatInfo(seat).rating;
      if (!rating || typeof rating.value !== "number") return null;
      const shown = rating.value + (rating.provisional ? "?" : "");
      const title = fill(
        rating.bot ? S.rating_bot_title : rating.provisional ? S.rating_provisional_title : S.rating_title,
        { value: rating.value },
      );
      return el(
        "span",
        {
          class: "rating-badge tv-rating" + (rating.bot ? " rating-bot" : ""),
          title: title,
          "data-rating": rating.value,
        },
        [
          el("span", { "aria-hidden": "true", text: "\u2605\u2009" + shown }),
          el("span", { class: "visually-hidden", text: "(" + title + ")" }),
        ],
      );
    }

    // "+12" / "−9" / "±0", as the end-of-match panel shows a rating change.
    function signed(change) {
      if (change > 0) return "+" + change;
      if (change < 0) return "\u2212" + -change;
      return "\u00b10";
    }

    function isPartner(seat) {
      const m = me();
      return m !== null && seat !== m && seat % 2 === m % 2;
    }

    // --- Announcements ----------------------------------------------------

    function announce(text) {
      if (!text) return;
      live.append(el("p", { text: text }));
      while (live.childElementCount > 6) live.firstElementChild.remove();
    }

    function announceEvents(events) {
      for (const e of events || []) {
        if (e.type === "card_played") {
          announce(said("played", e.seat, { card: cardName(e.card) }));
        } else if (e.type === "trick_won") {
          announce(said("trick_points", e.seat, { points: e.points }));
        } else if (e.type === "bid_made") {
          announce(fill(S.bid_made, { name: seatName(e.seat), bid: W.bids[e.bid] || e.bid }));
        } else if (e.type === "bidding_over") {
          if (e.declarer === null || e.declarer === undefined) announce(S.all_passed);
          else announce(said("contract_set", e.declarer, { contract: W.bids[e.contract] || e.contract }));
        } else if (e.type === "declaration_made") {
          announce(said("sings", e.seat, { points: e.points, suit: W.suits[e.suit] }));
        }
      }
    }

    // --- The top bar: what is played, scores, hand, turn, last trick -----------

    // The mode, the rule set and, at a stake table, the stake and the pot.
    function tableFacts() {
      const info = frame.table;
      const facts = [S.modes[info.mode] || info.mode, S.rule_sets[info.rules] || info.rules];
      // The daily deal ("Reparto del día"): which of the day's deals this is.
      if (info.daily) facts.splice(1, 0, fill(S.daily_deal_of, { n: info.daily.deal, of: info.daily.deals }));
      if (typeof info.stake === "number") facts.push(fill(S.stake, { coins: info.stake }));
      if (typeof info.pot === "number" && info.pot > 0) facts.push(fill(S.pot, { coins: info.pot }));
      return el("p", { class: "tv-facts", "data-testid": "table-facts", text: facts.join(" · ") });
    }

    // Linked accounts seated here (the same device or network; docs/moderation.md):
    // every reader of the table is told, one line a pair.
    function linkedMarkers() {
      return (frame.table.linked || []).map(function (pair) {
        return el("p", {
          class: "tv-linked linked-marker",
          role: "note",
          "data-testid": "linked-accounts",
          text: fill(S.linked_accounts, { a: pair[0], b: pair[1] }),
        });
      });
    }

    // The daily deal's facts (null at any other table).
    function daily() {
      return frame?.table?.daily || null;
    }

    function dailyForm(action, number, label, primary) {
      return el("form", { method: "post", action: action, class: "tv-daily-form" }, [
        el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: forms ? forms.csrf : "" }),
        el("input", { type: "hidden", name: "deal", value: number }),
        el("button", { type: "submit", class: primary ? "button-primary" : "", text: label }),
      ]);
    }

    function drawBar() {
      const view = frame.view;
      const m = me();
      const pair = m === null ? 0 : m % 2;
      const d = daily();
      bar.innerHTML = "";
      bar.append(tableFacts(), ...linkedMarkers());
      const score = el("p", { class: "tv-score", "aria-label": S.score_label }, [
        el("span", { class: "tv-score-us" }, [
          pairName(pair, pair) + " ",
          el("strong", { "data-testid": "score-us", text: view.scores[pair] }),
        ]),
        el("span", { class: "tv-score-them" }, [
          pairName(1 - pair, pair) + " ",
          el("strong", { text: view.scores[1 - pair] }),
        ]),
        d ? null : el("span", { class: "tv-muted", text: fill(S.to_target, { target: view.target }) }),
        d ? null : el("span", { class: "tv-muted", text: fill(S.hand_no, { n: view.hand_no }) }),
      ]);
      bar.append(score);
      const trump = view.hand?.trump;
      if (trump?.suit) {
        bar.append(
          el("p", { class: "tv-trump-suit tv-suit-" + trump.suit }, [
            el("span", { "aria-hidden": "true", text: SUIT_SYMBOL[trump.suit] + " " }),
            S.trump + ": " + W.suits[trump.suit],
          ]),
        );
      }
      const tools = el("div", { class: "tv-tools" });
      if (lastTrick && !showing) {
        const peek = el("button", {
          type: "button",
          class: "tv-tool",
          "aria-pressed": peeking ? "true" : "false",
          text: peeking ? S.hide_last_trick : S.last_trick,
        });
        peek.addEventListener("click", function () {
          peeking = !peeking;
          drawAll();
          bar.querySelector(".tv-tool").focus();
        });
        tools.append(peek);
      }
      if (forms && m !== null && frame.table.status === "playing" && !d?.parked) {
        const leave = el("form", { method: "post", action: forms.leave, class: "tv-leave" }, [
          el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: forms.csrf }),
          el("button", { type: "submit", class: "tv-tool tv-tool-quiet", text: d ? S.daily_leave : S.leave }),
        ]);
        leave.addEventListener("submit", function (event) {
          if (!window.confirm(d ? S.daily_leave_confirm : S.leave_confirm)) event.preventDefault();
        });
        tools.append(leave);
      }
      bar.append(tools);
    }

    // --- The felt: seats around the trick ----------------------------------

    function seatTags(seat) {
      const view = frame.view;
      const hand = view.hand || {};
      const info = seatInfo(seat);
      const tags = [];
      if (hand.dealer === seat) tags.push(el("span", { class: "tv-tag tv-tag-dealer", text: S.dealer }));
      if (hand.mano === seat) tags.push(el("span", { class: "tv-tag", text: S.mano }));
      const bids = (hand.bids || []).filter(function (b) {
        return (Array.isArray(b) ? b[0] : b.seat) === seat;
      });
      if (hand.declarer === seat && hand.contract) {
        tags.push(
          el("span", { class: "tv-tag tv-tag-strong", text: fill(S.contract_of, { contract: W.bids[hand.contract] }) }),
        );
      } else if (bids.length && hand.phase === "bidding") {
        const last = bids[bids.length - 1];
        const word = Array.isArray(last) ? last[1] : last.bid;
        tags.push(el("span", { class: "tv-tag tv-tag-bid", text: W.bids[word] || word }));
      }
      for (const d of hand.declarations || []) {
        if (d.seat === seat) {
          tags.push(
            el("span", {
              class: "tv-tag tv-tag-sing",
              text: fill(S.declared, { points: d.points, suit: W.suits[d.suit] }),
            }),
          );
        }
      }
      if (hand.sitting_out === seat) tags.push(el("span", { class: "tv-tag", text: S.sits_out }));
      if (info.abandoned) tags.push(el("span", { class: "tv-tag tv-tag-warn", text: S.abandoned }));
      else if (info.absent) tags.push(el("span", { class: "tv-tag tv-tag-warn", text: S.away }));
      return tags;
    }

    function seatBox(seat) {
      const view = frame.view;
      const hand = view.hand || {};
      const info = seatInfo(seat);
      const pos = where(seat);
      const m = me();
      const name = seatName(seat);
      const badges = [ratingBadge(seat), reliabilityBadge(seat)];
      if (info.kind === "bot") {
        const level = info.level || info.bot_level;
        badges.push(
          el("span", {
            class: "tv-badge tv-badge-bot",
            text: level ? fill(S.bot_level, { level: S.levels[level] || level }) : S.bot,
          }),
        );
      }
      // A seat already named "You" (offline practice) takes no "you" badge beside it.
      const selfNamed = seat === m && info.self_named;
      if (seat === m && !selfNamed) badges.push(el("span", { class: "tv-badge tv-badge-you", text: S.you }));
      else if (isPartner(seat)) badges.push(el("span", { class: "tv-badge tv-badge-partner", text: S.partner }));
      const turn = view.to_play === seat && frame.table.status === "playing";
      const label = [
        name,
        seat === m ? (selfNamed ? "" : S.you) : isPartner(seat) ? S.partner : m !== null ? S.opponent : "",
      ]
        .filter(Boolean)
        .join(", ");
      const box = el(
        "section",
        {
          class:
            "tv-seat tv-seat--" +
            pos +
            (turn ? " tv-seat--turn" : "") +
            (isPartner(seat) ? " tv-seat--partner" : "") +
            (hand.sitting_out === seat ? " tv-seat--out" : ""),
          "aria-label": label,
          "data-seat": seat,
        },
        [el("h2", { class: "tv-seat-name" }, [el("span", { class: "tv-name", text: name })].concat(badges))],
      );
      const tags = seatTags(seat);
      if (tags.length) box.append(el("p", { class: "tv-tags" }, tags));
      const counts = [];
      if (seat !== m) {
        const size = (hand.hand_sizes || [])[seat] || 0;
        const backs = el("span", { class: "tv-backs", role: "img", "aria-label": S.cards_n[size] || String(size) });
        for (let i = 0; i < size; i++) backs.append(cardBack("small"));
        counts.push(backs);
      }
      const won = (hand.tricks_won || [])[seat] || 0;
      counts.push(el("span", { class: "tv-tricks", text: S.tricks_n[won] || String(won) }));
      box.append(el("div", { class: "tv-seat-cards" }, counts));
      const trump = hand.trump;
      if (trump?.dealer_holds && hand.dealer === seat && trump.card) {
        const label2 = fill(S.trump_held, { card: cardName(trump.card) });
        box.append(el("div", { class: "tv-trump-card", title: label2 }, [cardFace(trump.card, "small", label2)]));
      }
      return box;
    }

    function trickArea() {
      const view = frame.view;
      const hand = view.hand || {};
      let plays = playsOf(hand.trick);
      let winner = null;
      let caption = "";
      if (showing) {
        plays = showing.plays;
        winner = showing.winner;
        caption = said("won_trick", winner, {});
      } else if (peeking && lastTrick) {
        plays = lastTrick.plays;
        winner = lastTrick.winner;
        caption = S.last_trick + " · " + said("won_trick", winner, {});
      }
      const area = el("section", {
        class: "tv-trick" + (peeking && !showing ? " tv-trick--peek" : ""),
        role: "region",
        "aria-label": S.trick_region,
      });
      for (const play of plays) {
        const label = said("played", play.seat, { card: cardName(play.card) });
        const classes =
          "tv-slot tv-slot--" +
          where(play.seat) +
          (play.seat === winner ? " tv-slot--winner" : "") +
          (fresh.indexOf(play.card) >= 0 ? " tv-slot--new" : "");
        const slot = el("div", { class: classes, "data-card": play.card, "data-seat": play.seat }, [
          cardFace(play.card, "trick", label),
        ]);
        if (play.seat === winner) slot.append(el("span", { class: "tv-winner-mark", text: S.winner_mark }));
        area.append(slot);
      }
      if (caption) area.append(el("p", { class: "tv-trick-caption", text: caption }));
      return area;
    }

    function drawFelt() {
      felt.innerHTML = "";
      const m = me();
      // A watcher (no seat of their own) sees the four seats: one of them at the bottom.
      felt.classList.toggle("tv-felt--four", m === null);
      for (let seat = 0; seat < 4; seat++) {
        if (seat !== m) felt.append(seatBox(seat));
      }
      felt.append(trickArea());
      const panel = endPanel();
      if (panel) felt.append(panel);
    }

    // --- The end of a hand and of a match -----------------------------------

    function handSummary() {
      if (!summary) return null;
      const r = summary.result;
      const m = me();
      const pair = m === null ? 0 : m % 2;
      const title = fill(S.summary_title, { n: summary.number });
      let verdict;
      if (r.kind === "pass") verdict = S.summary_pass;
      else
        verdict = said(r.made ? "summary_made" : "summary_failed", r.declarer, {
          contract: W.bids[r.contract] || r.contract,
        });
      const tricks = r.tricks_per_seat || [0, 0, 0, 0];
      const pairTricks = [tricks[0] + tricks[2], tricks[1] + tricks[3]];
      const decl = (r.declarations || []).map(function (d) {
        return said("sings", d.seat, { points: d.points, suit: W.suits[d.suit] });
      });
      const points = [0, 0];
      if (r.scoring_pair !== null && r.scoring_pair !== undefined) points[r.scoring_pair] = r.match_points;
      const row = function (label, us, them) {
        return el("tr", null, [
          el("th", { scope: "row", text: label }),
          el("td", { text: us }),
          el("td", { text: them }),
        ]);
      };
      const lastBy = r.last_trick_seat;
      const bonus = r.last_trick_bonus === undefined ? null : r.last_trick_bonus;
      const lastRow = function () {
        if (lastBy === null || lastBy === undefined || bonus === 0) return null;
        const mark = bonus ? "+" + bonus : "✓";
        return row(S.summary_last_trick, lastBy % 2 === pair ? mark : "", lastBy % 2 === pair ? "" : mark);
      };
      const table = el("table", { class: "tv-summary-table" }, [
        el("thead", null, [
          el("tr", null, [
            el("td"),
            el("th", { scope: "col", text: pairName(pair, pair) }),
            el("th", { scope: "col", text: pairName(1 - pair, pair) }),
          ]),
        ]),
        el("tbody", null, [
          row(S.summary_tricks, pairTricks[pair], pairTricks[1 - pair]),
          row(S.summary_card_points, r.card_points[pair], r.card_points[1 - pair]),
          lastRow(),
          r.hand_points ? row(S.summary_hand_points, r.hand_points[pair], r.hand_points[1 - pair]) : null,
          row(S.summary_match_points, "+" + points[pair], "+" + points[1 - pair]),
        ]),
      ]);
      return el("section", { class: "tv-summary", "aria-labelledby": "tv-summary-title" }, [
        el("h2", { id: "tv-summary-title", text: title }),
        el("p", { text: verdict + (r.tie ? " " + S.summary_tie : "") }),
        table,
        decl.length ? el("p", { class: "tv-summary-decl" }, [S.summary_declarations + ": " + decl.join(" · ")]) : null,
      ]);
    }

    function matchPanel() {
      const status = frame.table.status;
      if (status !== "finished") return null;
      const view = frame.view;
      const m = me();
      const pair = m === null ? 0 : m % 2;
      const results = frame.result || null;
      const places = results ? results.places || [] : [];
      const mine =
        results && m !== null
          ? results.you ||
            places.find(function (s) {
              return s.position === m;
            })
          : null;
      const d = daily();
      if (d) return dailyPanel(d);
      let title = S.match_over;
      if (m !== null) {
        if (mine?.abandoned || seatInfo(m).abandoned) title = S.you_abandoned;
        else if (mine && "won" in mine) title = mine.won ? S.you_won : S.you_lost;
        else title = view.winner === pair ? S.you_won : S.you_lost;
      }
      const body = [
        el("h2", { id: "tv-result-title", class: "tv-result-title", text: title }),
        el("p", { text: fill(S.final_score, { us: view.scores[pair], them: view.scores[1 - pair] }) }),
      ];
      const myRating = mine?.rating;
      if (myRating) {
        body.push(
          el("p", {
            class: "tv-rating-change" + (myRating.change < 0 ? " is-down" : myRating.change > 0 ? " is-up" : ""),
            "data-rating-change": myRating.change,
            text: fill(S.your_rating_change, {
              after: myRating.after + (myRating.provisional ? "?" : ""),
              change: signed(myRating.change),
            }),
          }),
        );
      }
      if (places.length) {
        const list = el("ol", { class: "tv-places", "aria-label": S.places });
        const ordered = places.slice().sort(function (a, b) {
          return a.place - b.place;
        });
        for (const s of ordered) {
          // "(you)" beside the viewer's name, unless the seat is named for them ("You").
          const markYou = s.position === m && !seatInfo(m).self_named;
          const bits = [seatName(s.position) + (markYou ? " (" + S.you + ")" : "")];
          bits.push(S.personal_points + ": " + s.personal_points);
          if (s.coins !== undefined && s.coins !== null) bits.push(S.coins + ": " + s.coins);
          if (s.xp !== undefined && s.xp !== null) bits.push(S.xp + ": " + s.xp);
          if (s.rating)
            bits.push(
              fill(S.rating_change, {
                after: s.rating.after + (s.rating.provisional ? "?" : ""),
                change: signed(s.rating.change),
              }),
            );
          if (s.abandoned) bits.push(S.abandoned_tag);
          list.append(el("li", { class: s.position === m ? "tv-place-me" : null, text: bits.join(" · ") }));
        }
        body.push(list);
      }
      if (forms && m !== null) {
        body.push(
          el("div", { class: "tv-actions" }, [
            el("form", { method: "post", action: forms.again }, [
              el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: forms.csrf }),
              el("button", { type: "submit", class: "button-primary", text: S.play_again }),
            ]),
            el("a", { class: "button", href: forms.lobby, text: S.back_to_lobby }),
          ]),
        );
      } else if (forms?.follow && m === null) {
        // A watcher following a friend: on to the friend's next table (docs/watching.md).
        body.push(
          el("div", { class: "tv-actions" }, [
            el("a", {
              class: "button button-primary",
              href: forms.follow.url,
              "data-testid": "follow-next",
              text: fill(S.follow_next, { name: forms.follow.name }),
            }),
          ]),
        );
      }
      return el("section", { class: "tv-result result", role: "status", "aria-labelledby": "tv-result-title" }, body);
    }

    // The end of a daily deal: its result for the player's pair (the frame's
    // `table.daily.result`, worked out by the server), then the next deal if any.
    function dailyPanel(d) {
      const result = d.result > 0 ? "+" + d.result : d.result < 0 ? "−" + -d.result : "0";
      const body = [
        el("h2", {
          id: "tv-result-title",
          class: "tv-result-title",
          "data-testid": "daily-result",
          text: fill(S.daily_result, { n: d.deal, result: result }),
        }),
        el("p", { text: S.daily_result_hint }),
      ];
      if (forms && me() !== null) {
        const actions = [];
        if (d.next) actions.push(dailyForm(d.play, d.next, fill(S.daily_next, { n: d.next, of: d.deals }), true));
        else actions.push(el("a", { class: "button button-primary", href: d.page, text: S.daily_results }));
        actions.push(el("a", { class: "button", href: d.replay, text: S.daily_deal_results }));
        if (d.next) actions.push(el("a", { class: "button", href: d.page, text: S.daily_page }));
        body.push(el("div", { class: "tv-actions" }, actions));
      }
      return el(
        "section",
        { class: "tv-result result tv-daily-result", role: "status", "aria-labelledby": "tv-result-title" },
        body,
      );
    }

    function endPanel() {
      const result = matchPanel();
      const hand = handSummary();
      if (!result && !hand) return null;
      const panel = el("div", { class: "tv-panel" + (result ? " tv-panel--match" : "") }, [result, hand]);
      if (!result) {
        const close = el("button", { type: "button", class: "tv-close", text: S.close });
        close.addEventListener("click", function () {
          summary = null;
          drawAll();
          focusHand();
        });
        panel.append(close);
      }
      return panel;
    }

    // --- My hand: bids and cards ------------------------------------------------

    // Why a held card cannot be played now: the engine's refusal for it (the view's
    // `refusals`, by card code: a code and its params), in the page's language.
    function refusal(code) {
      const found = frame.view.hand.refusals?.[code];
      if (!found) return ""; // a legal card while a move is being sent
      const params = found.params || {};
      // As the server words it (games/words/catalogue.py `refusal_text`).
      return fill(W.refusals[found.code] || W.refusal_default, { suit: params.suit ? W.suits[params.suit] : "" });
    }

    function play(action) {
      if (sending) return;
      sending = true;
      errorText = "";
      drawMine();
      onAction(action);
    }

    function cardButtons() {
      return Array.prototype.slice.call(mine.querySelectorAll(".tv-hand-card"));
    }

    function focusHand() {
      const buttons = cardButtons();
      const target =
        mine.querySelector(".tv-bids button") ||
        buttons.find(function (b) {
          return b.getAttribute("aria-disabled") !== "true";
        }) ||
        buttons[0];
      if (target) target.focus();
    }

    function drawMine() {
      const view = frame.view;
      const hand = view?.hand;
      if (!hand || me() === null || frame.table.status !== "playing") {
        mine.hidden = true;
        return;
      }
      mine.hidden = false;
      const d = daily();
      if (d?.parked) {
        // The player left this deal for later: their seat waits until they take it back.
        mine.innerHTML = "";
        mine.append(
          el("p", { class: "tv-status", role: "status", text: S.daily_parked }),
          forms ? dailyForm(d.play, d.deal, S.daily_resume, true) : null,
        );
        wasMyTurn = false;
        return;
      }
      const inMine = mine.contains(document.activeElement);
      const focusedCode = inMine && document.activeElement.dataset ? document.activeElement.dataset.card : null;
      const focusedIndex = cardButtons().indexOf(document.activeElement);
      const bidFocused = inMine && document.activeElement.closest(".tv-bids");
      mine.innerHTML = "";
      const legal = hand.legal_actions || [];
      const myTurn = legal.length > 0 && !showing;
      const m = me();
      const head = el("div", { class: "tv-mine-head" + (myTurn ? " tv-mine-head--turn" : "") }, [
        el(
          "h2",
          { class: "tv-seat-name" },
          [el("span", { class: "tv-name", text: seatName(m) }), ratingBadge(m), reliabilityBadge(m)].concat(
            seatInfo(m).self_named ? [] : [el("span", { class: "tv-badge tv-badge-you", text: S.you })],
          ),
        ),
        el(
          "p",
          { class: "tv-tags" },
          seatTags(m).concat([el("span", { class: "tv-tricks", text: S.tricks_n[(hand.tricks_won || [])[m] || 0] })]),
        ),
      ]);
      const trump = hand.trump;
      if (trump?.dealer_holds && hand.dealer === m && trump.card) {
        const label = fill(S.trump_held, { card: cardName(trump.card) });
        head.append(el("div", { class: "tv-trump-card", title: label }, [cardFace(trump.card, "small", label)]));
      }
      mine.append(head);
      const status = el("p", { class: "tv-status", id: "tv-status" });
      if (errorText) {
        status.classList.add("tv-error");
        status.setAttribute("role", "alert");
        status.textContent = errorText;
      } else if (sending) status.textContent = S.sending;
      else if (myTurn) status.textContent = hand.phase === "bidding" ? S.your_turn_bid : S.your_turn_card;
      else if (view.to_play !== null && view.to_play !== undefined && frame.table.status === "playing")
        status.textContent = fill(S.to_play, { name: seatName(view.to_play) });
      const countdown = el("span", {
        class: "tv-countdown",
        "data-deadline": frame.table.deadline_ms || "",
        "aria-hidden": "true",
      });
      mine.append(el("div", { class: "tv-statusline" }, [status, countdown]));
      const bidWords = legal.filter(function (a) {
        return Object.hasOwn(W.bids, a);
      });
      if (bidWords.length && myTurn) {
        const group = el("div", { class: "tv-bids", role: "group", "aria-label": S.bids_label });
        for (const word of bidWords) {
          const button = el("button", {
            type: "button",
            class: "tv-bid" + (word === "pass" ? "" : " button-primary"),
            "data-action": word,
            text: W.bids[word],
          });
          if (sending) button.setAttribute("aria-disabled", "true");
          button.addEventListener("click", function () {
            if (button.getAttribute("aria-disabled") !== "true") play(word);
          });
          group.append(button);
        }
        mine.append(group);
      }
      const list = el("ul", { class: "tv-hand", "aria-label": S.your_hand, "aria-describedby": "tv-keys" });
      const cards = hand.hand || [];
      cards.forEach(function (code, i) {
        const playable = myTurn && !sending && legal.indexOf(code) >= 0;
        const why = playable ? "" : refusal(code);
        const button = el(
          "button",
          {
            type: "button",
            class: "tv-hand-card" + (playable ? " tv-hand-card--playable" : ""),
            "data-card": code,
            "aria-label": i + 1 + ". " + cardName(code) + (why ? " — " + why : ""),
            "aria-disabled": playable ? null : "true",
            tabindex: "-1",
            title: why || null,
          },
          [cardFace(code, "hand", cardName(code))],
        );
        button.addEventListener("click", function () {
          if (button.getAttribute("aria-disabled") !== "true") play(code);
        });
        list.append(el("li", null, [button]));
      });
      mine.append(list);
      mine.append(el("p", { class: "visually-hidden", id: "tv-keys", text: S.keys_hint }));
      // One tab stop for the hand (roving tabindex); focus stays where it was.
      const buttons = cardButtons();
      let target = buttons.find(function (b) {
        return b.dataset.card === focusedCode;
      });
      if (!target && focusedIndex >= 0 && buttons.length) target = buttons[Math.min(focusedIndex, buttons.length - 1)];
      const stop =
        target ||
        buttons.find(function (b) {
          return b.classList.contains("tv-hand-card--playable");
        }) ||
        buttons[0];
      if (stop) stop.tabIndex = 0;
      if (target) target.focus();
      else if (bidFocused || (focusedIndex >= 0 && !buttons.length)) focusHand();
      // Your turn: say so, and bring the keyboard user back to the hand.
      if (myTurn && !wasMyTurn) {
        announce(hand.phase === "bidding" ? S.your_turn_bid : S.your_turn_card);
        const active = document.activeElement;
        if (!active || active === document.body || root.contains(active)) {
          if (!(target && target.getAttribute("aria-disabled") !== "true")) focusHand();
        }
      }
      wasMyTurn = myTurn;
    }

    mine.addEventListener("keydown", function (event) {
      const buttons = cardButtons();
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      let next = -1;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (at + 1) % buttons.length;
      else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (at - 1 + buttons.length) % buttons.length;
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = buttons.length - 1;
      if (next < 0) return;
      event.preventDefault();
      buttons[at].tabIndex = -1;
      buttons[next].tabIndex = 0;
      buttons[next].focus();
    });

    // Numbers choose a card from anywhere on the page but a text field.
    document.addEventListener("keydown", onDigit);
    function onDigit(event) {
      if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-9]$/.test(event.key)) return;
      const target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
      const buttons = cardButtons();
      const chosen = buttons[parseInt(event.key, 10) - 1];
      if (!chosen || mine.hidden) return;
      event.preventDefault();
      buttons.forEach(function (b) {
        b.tabIndex = -1;
      });
      chosen.tabIndex = 0;
      chosen.focus();
    }

    // --- Frames -------------------------------------------------------------------

    function drawAll() {
      if (!frame?.view) return;
      root.dataset.status = frame.table.status;
      root.dataset.seq = frame.seq;
      root.dataset.version = frame.version;
      drawBar();
      drawFelt();
      drawMine();
      drawLegend();
    }

    // The hand just finished, as the frame's builder summed it up (games/frames/builder.py).
    function summaryOf(next) {
      return next.summary ? { number: next.summary.hand_no, result: next.summary } : null;
    }

    function trickOf(next) {
      const trick = next.last_trick;
      return trick ? { winner: trick.winner, plays: playsOf(trick), number: trick.number } : null;
    }

    function apply(next) {
      const events = next.events || [];
      const previous = frame;
      frame = next;
      sending = false;
      if (next.type !== "update" || !previous) {
        // A full state: no animation.
        fresh = [];
        lastTrick = trickOf(next);
        if (next.view && next.table.status === "finished") summary = summaryOf(next);
        drawAll();
        return;
      }
      announceEvents(events);
      fresh = events
        .filter(function (e) {
          return e.type === "card_played";
        })
        .map(function (e) {
          return e.card;
        });
      const won = events.find(function (e) {
        return e.type === "trick_won";
      });
      if (won) {
        lastTrick = trickOf(next);
        showing = lastTrick;
        peeking = false;
      }
      if (
        events.some(function (e) {
          return e.type === "hand_over";
        })
      ) {
        summary = summaryOf(next);
      } else if (
        events.some(function (e) {
          return e.type === "card_played";
        }) &&
        summary &&
        next.table.status === "playing"
      ) {
        summary = null; // the next hand is under way
      }
      if (
        events.some(function (e) {
          return e.type === "match_over";
        }) ||
        next.table.status === "finished"
      ) {
        summary = summary || summaryOf(next);
      }
      drawAll();
      if (won) {
        holding = true;
        window.setTimeout(function () {
          const area = felt.querySelector(".tv-trick");
          const toward = where(won.seat);
          const done = function () {
            showing = null;
            fresh = [];
            holding = false;
            drawAll();
            pump();
          };
          if (area && !reducedMotion()) {
            area.classList.add("tv-trick--to-" + toward);
            window.setTimeout(done, MOVE_MS);
          } else done();
        }, holdMs);
      }
    }

    function pump() {
      while (!holding && queue.length) apply(queue.shift());
    }

    function render(next) {
      if (!next?.table) return;
      if (next.type === "state" && holding) {
        queue = [next]; // the whole state supersedes what was waiting
        return;
      }
      queue.push(next);
      pump();
    }

    // A play made earlier is on its way now (sent once the socket opened).
    function showSending() {
      sending = true;
      errorText = "";
      if (frame?.view) drawMine();
    }

    function showError(message) {
      sending = false;
      errorText = message || "";
      if (frame?.view) drawMine();
    }

    // The turn countdown, from the deadline carried by the frame.
    const ticker = window.setInterval(function () {
      const node = root.querySelector(".tv-countdown");
      if (!node?.dataset.deadline) return;
      const left = Math.max(0, Math.ceil((parseInt(node.dataset.deadline, 10) - Date.now()) / 1000));
      node.textContent = left + " s";
      node.classList.toggle("tv-countdown--low", left <= 5);
    }, 250);

    // A page that mounts a new table (offline practice, per match) lets the old one go.
    function destroy() {
      document.removeEventListener("keydown", onDigit);
      window.clearInterval(ticker);
      queue = [];
    }

    return {
      render: render,
      showError: showError,
      showSending: showSending,
      destroy: destroy,
      idle: function () {
        return !holding && !queue.length;
      },
    };
  }

  window.CuatrolaTable = { mount: mount };
})();
