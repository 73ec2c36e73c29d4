/* The game board: start or resume an attempt, roll, keep, bank, and the end-of-game panel.
 * Every number shown comes from the API's attempt state (keep_options, farkle_risk, turns). */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  var root = document.querySelector("[data-play]");
  if (!root) return;

  var kind = root.dataset.kind;
  var base = kind === "daily" ? "/api/daily/" + root.dataset.date : "/api/challenges/" + root.dataset.code;
  var boardUrl = base + "/leaderboard";
  var par = parseInt(root.dataset.par, 10) || null;
  var TURNS = 10;
  var handSize = parseInt(root.dataset.dice, 10) || 6;

  var q = function (role) { return root.querySelector('[data-role="' + role + '"]'); };
  var ui = {
    board: q("board"), mode: q("mode"), status: q("status"), score: q("score"), turn: q("turn"),
    turnPoints: q("turn-points"), risk: q("risk"), riskBox: q("risk-box"), banner: q("banner"),
    kept: q("kept"), dice: q("dice"), selection: q("selection"), error: q("error"),
    scorecard: q("scorecard"), end: q("end"),
    roll: root.querySelector('[data-action="roll"]'),
    keepRoll: root.querySelector('[data-action="keep-roll"]'),
    keepBank: root.querySelector('[data-action="keep-bank"]'),
  };

  var puzzle = null;      // the daily or challenge, with my_attempts
  var attempt = null;     // the attempt's full state, as the API last sent it
  var selection = [];     // positions selected in the current throw
  var busy = false;
  var farkled = null;     // {turn, dice, lost}: the throw that just Farkled, shown until the next roll
  var hotTurn = null;     // the turn in which hot dice last came up
  var bannerTimer = null;
  var endShownFor = null;

  function playable() {
    if (!puzzle) return false;
    if (kind === "daily") return puzzle.status === "open" || puzzle.status === "closed";
    return puzzle.status === "open";
  }

  function nextIsOfficial() {
    if (!puzzle || (kind === "daily" && puzzle.status !== "open")) return false;
    return !puzzle.my_attempts.some(function (a) { return a.official; });
  }

  function turnOf(state, number) {
    for (var i = 0; i < state.turns.length; i++) if (state.turns[i].turn === number) return state.turns[i];
    return { turn: number, throws: [], points: 0, farkle: false, done: false };
  }

  function option() {
    if (!attempt || attempt.state !== "awaiting_keep" || !selection.length) return null;
    var key = selection.slice().sort().join(",");
    for (var i = 0; i < attempt.keep_options.length; i++) {
      if (attempt.keep_options[i].dice.slice().sort().join(",") === key) return attempt.keep_options[i];
    }
    return null;
  }

  function showError(message) {
    ui.error.textContent = message || "";
    ui.error.hidden = !message;
  }

  function showBanner(type, word, sub, persist) {
    window.clearTimeout(bannerTimer);
    ui.banner.className = "banner " + type;
    ui.banner.textContent = "";
    ui.banner.appendChild(F.el("div", { class: "word", text: word }));
    if (sub) ui.banner.appendChild(F.el("div", { class: "sub", text: sub }));
    ui.banner.hidden = false;
    ui.banner.dataset.event = type;
    if (!persist) {
      bannerTimer = window.setTimeout(function () { ui.banner.hidden = true; }, type === "hot" ? 1800 : 1300);
    }
  }

  function hideBanner() {
    window.clearTimeout(bannerTimer);
    ui.banner.hidden = true;
  }

  /* ---- the selection survives a reload: kept per attempt and step, in this tab only ---- */

  function selectionKey() {
    return "farkle:selection:" + attempt.id;
  }

  function selectionSave() {
    if (!attempt) return;
    try {
      if (selection.length && attempt.state === "awaiting_keep") {
        window.sessionStorage.setItem(selectionKey(), JSON.stringify({ step: attempt.step, dice: selection }));
      } else {
        window.sessionStorage.removeItem(selectionKey());
      }
    } catch (e) { /* storage refused (private mode, quota): the selection just isn't kept */ }
  }

  function selectionRestore() {
    var saved = null;
    try { saved = JSON.parse(window.sessionStorage.getItem(selectionKey()) || "null"); } catch (e) { saved = null; }
    // Only for the very throw it was made on: any move since makes it meaningless.
    if (!saved || saved.step !== attempt.step || attempt.state !== "awaiting_keep") return [];
    return (saved.dice || []).filter(function (p, i, all) {
      return typeof p === "number" && p >= 0 && p < attempt.dice.length && all.indexOf(p) === i;
    });
  }

  /* ---- rendering ---- */

  function render() {
    root.dataset.state = attempt ? attempt.state : !puzzle ? "loading" : playable() ? "new" : "unavailable";
    root.dataset.step = attempt ? String(attempt.step) : "";
    root.dataset.attempt = attempt ? String(attempt.id) : "";

    var official = attempt ? attempt.official : nextIsOfficial();
    ui.mode.hidden = !puzzle;
    ui.mode.textContent = official ? _("Official") : _("Practice");
    ui.mode.className = "badge" + (official ? "" : " practice");
    ui.status.textContent = statusLine(official);

    ui.score.textContent = F.fmt(attempt ? attempt.score : 0);
    ui.turn.textContent = attempt ? (attempt.state === "finished" ? TURNS : attempt.turn) : 1;
    ui.turnPoints.textContent = F.fmt(attempt ? attempt.turn_points : 0);

    renderKept();
    renderDice();
    renderSelection();
    renderScorecard();
    root.classList.toggle("is-finished", !!(attempt && attempt.state === "finished"));
    if (attempt && attempt.state === "finished") renderEnd();
    else {
      ui.end.hidden = true;
      endShownFor = null;
    }
  }

  function statusLine(official) {
    if (!puzzle) return "";
    if (attempt && attempt.state === "finished") return _("Game over");
    if (!attempt && !playable()) {
      return kind === "daily" ? _("This day is closing: archive play opens shortly.") : _("This challenge has closed.");
    }
    if (!attempt) return official ? _("Your first game counts.") : _("Practice: not ranked.");
    return official ? _("Counts for the leaderboard.") : _("Practice: not ranked.");
  }

  function renderKept() {
    ui.kept.textContent = "";
    if (!attempt || attempt.state === "finished") {
      ui.kept.appendChild(F.el("span", { class: "empty", text: _("Nothing kept yet.") }));
      return;
    }
    var turn = turnOf(attempt, attempt.turn);
    var throws = turn.throws.filter(function (t) { return t.kept.length; });
    if (!throws.length) {
      ui.kept.appendChild(F.el("span", { class: "empty", text: _("Nothing kept yet.") }));
      return;
    }
    throws.forEach(function (t) {
      var faces = t.kept.map(function (p) { return t.dice[p]; });
      var group = F.el("span", { class: "group", title: F.fmt(t.points) });
      faces.forEach(function (f) { group.appendChild(F.die(f, "mini", false)); });
      group.appendChild(F.el("span", { class: "pts", text: "+" + F.fmt(t.points) }));
      group.setAttribute("role", "img");
      group.setAttribute("aria-label", F.interpolate(_("kept %(dice)s for %(points)s"), { dice: faces.join(", "), points: F.fmt(t.points) }, true));
      ui.kept.appendChild(group);
      if (t.hot_dice) {
        ui.kept.appendChild(F.el("span", { class: "badge hot", "data-hot": "1", text: "🔥 " + _("Hot dice") }));
      }
    });
  }

  function renderDice() {
    ui.dice.textContent = "";
    ui.dice.classList.remove("farkled", "refused");
    if (attempt && attempt.state === "awaiting_keep") {
      attempt.dice.forEach(function (face, position) {
        var pressed = selection.indexOf(position) >= 0;
        var button = F.el("button", {
          type: "button",
          class: "die-btn",
          "data-pos": String(position),
          "data-face": String(face),
          "aria-pressed": pressed ? "true" : "false",
          "aria-label": F.interpolate(_("Die %(n)s: %(face)s"), { n: position + 1, face: face }, true),
          disabled: busy,
        }, [F.die(face, null, false), F.el("span", { class: "pos", "aria-hidden": "true", text: String(position + 1) })]);
        button.addEventListener("click", function () { toggle(position); });
        ui.dice.appendChild(button);
      });
      return;
    }
    if (farkled && attempt && attempt.state !== "finished" && farkled.turn === attempt.turn - 1) {
      ui.dice.classList.add("farkled");
      farkled.dice.forEach(function (face) { ui.dice.appendChild(F.die(face)); });
      return;
    }
    if (attempt && attempt.state === "finished") {
      var last = attempt.turns[attempt.turns.length - 1];
      var lastThrow = last && last.throws[last.throws.length - 1];
      if (lastThrow) {
        if (last.farkle) ui.dice.classList.add("farkled");
        lastThrow.dice.forEach(function (face) { ui.dice.appendChild(F.die(face)); });
      }
      return;
    }
    var thrown = rethrown();
    if (thrown) {
      thrown.dice.forEach(function (face) { ui.dice.appendChild(F.die(face)); });
      return;
    }
    var count = attempt ? attempt.in_hand : handSize;
    for (var i = 0; i < count; i++) ui.dice.appendChild(F.die(0, null, false));
  }

  /* The last throw, when the table throws a non-scoring pair again (seed 004) rather than
   * calling it a Farkle: the API marks that throw `rethrow`. */
  function rethrown() {
    if (!attempt || attempt.state !== "awaiting_roll") return null;
    var turn = turnOf(attempt, attempt.turn);
    var last = turn.throws[turn.throws.length - 1];
    return last && last.rethrow ? last : null;
  }

  function renderSelection() {
    var finished = attempt && attempt.state === "finished";
    var awaitingKeep = attempt && attempt.state === "awaiting_keep";
    var chosen = option();
    var refused = awaitingKeep && selection.length > 0 && !chosen;
    ui.dice.classList.toggle("refused", !!refused);
    ui.selection.className = "selection" + (chosen ? " ok" : refused ? " bad" : "");

    var risk = null;
    if (attempt && attempt.state === "awaiting_roll") risk = attempt.farkle_risk;
    else if (!attempt) risk = null;
    if (chosen) risk = chosen.farkle_risk;
    ui.risk.textContent = risk === null || risk === undefined ? "–" : F.pct(risk, 1);
    ui.riskBox.classList.toggle("risk-high", risk !== null && risk >= 0.4);

    var text = "";
    if (finished) text = "";
    else if (!puzzle) text = _("Loading…");
    else if (!attempt) text = playable() ? _("Press Roll to start.") : "";
    else if (attempt.state === "awaiting_roll") {
      text = farkled && farkled.turn === attempt.turn - 1
        ? F.interpolate(_("Farkle! Turn %(turn)s scored nothing. Roll to start turn %(next)s."), { turn: farkled.turn, next: attempt.turn }, true)
        : rethrown()
          ? _("A pair that scores nothing is not a Farkle here: roll these dice again, your points stay.")
          : F.interpolate(F.ngettext("Turn %(turn)s: roll %(count)s die.", "Turn %(turn)s: roll %(count)s dice.", attempt.in_hand), { turn: attempt.turn, count: attempt.in_hand }, true);
    } else if (chosen) {
      var total = attempt.turn_points + chosen.score;
      text = F.interpolate(F.ngettext("Keep for %(points)s (turn: %(total)s) · then %(left)s die to roll", "Keep for %(points)s (turn: %(total)s) · then %(left)s dice to roll", chosen.dice_left), {
        points: F.fmt(chosen.score), total: F.fmt(total), left: chosen.dice_left,
      }, true);
      if (chosen.dice.length === attempt.in_hand) text += " · 🔥 " + _("hot dice!");
    } else if (refused) {
      text = _("These dice don't score together: every kept die must score.");
    } else if (hotTurn === attempt.turn && attempt.in_hand === handSize && attempt.roll > 1) {
      text = _("Hot dice! All the dice are back: select the dice to keep.");
    } else {
      text = _("Select the dice to keep.");
    }
    ui.selection.textContent = text;

    var canAct = !busy && !!puzzle;
    ui.roll.hidden = !!awaitingKeep || !!finished;
    ui.roll.disabled = !canAct || (!attempt && !playable()) || (attempt && attempt.state !== "awaiting_roll");
    ui.keepRoll.hidden = !awaitingKeep;
    ui.keepBank.hidden = !awaitingKeep;
    ui.keepRoll.disabled = !canAct || !chosen;
    ui.keepBank.disabled = !canAct || !chosen || !chosen.can_bank;
    if (!attempt && puzzle && !playable()) ui.roll.hidden = true;
  }

  function renderScorecard() {
    ui.scorecard.textContent = "";
    for (var n = 1; n <= TURNS; n++) {
      var turn = attempt ? turnOf(attempt, n) : null;
      var current = attempt && attempt.state !== "finished" && attempt.turn === n;
      var cls = current ? "current" : turn && turn.done ? (turn.farkle ? "farkle" : "banked") : "";
      var value = "·";
      var label = F.interpolate(_("Turn %(n)s: not played"), { n: n }, true);
      if (turn && turn.done) {
        value = turn.farkle ? "✗" : F.fmt(turn.points);
        label = turn.farkle
          ? F.interpolate(_("Turn %(n)s: Farkle"), { n: n }, true)
          : F.interpolate(_("Turn %(n)s: %(points)s banked"), { n: n, points: F.fmt(turn.points) }, true);
      } else if (current) {
        value = F.fmt(attempt.turn_points);
        label = F.interpolate(_("Turn %(n)s: playing, %(points)s at stake"), { n: n, points: F.fmt(attempt.turn_points) }, true);
      }
      var item = F.el("li", { class: cls, "aria-label": label, "aria-current": current ? "step" : null }, [
        F.el("span", { class: "t", "aria-hidden": "true", text: "T" + n }),
        F.el("span", { class: "p", "aria-hidden": "true", text: value }),
      ]);
      ui.scorecard.appendChild(item);
    }
  }

  /* ---- the end of a game: score, rank, histogram, share ---- */

  var EMOJI = { farkle: "🟥", low: "🟨", mid: "🟩", high: "🟦", none: "⬜" };

  function turnEmoji(turn) {
    if (!turn || !turn.done) return EMOJI.none;
    if (turn.farkle) return EMOJI.farkle;
    if (turn.points >= 1000) return EMOJI.high;
    if (turn.points >= 500) return EMOJI.mid;
    if (turn.points > 0) return EMOJI.low;
    return EMOJI.none;
  }

  function shareText(state) {
    var squares = "";
    for (var n = 1; n <= TURNS; n++) squares += turnEmoji(turnOf(state, n));
    var label = root.dataset.shareLabel;
    var head = "Farkle Daily " + (kind === "challenge" ? _("challenge") + " " : "") + label;
    if (!state.official) head += " (" + _("practice") + ")";
    return head + ": " + F.fmt(state.score) + "\n" + squares + "\n" + root.dataset.shareUrl;
  }

  function renderEnd() {
    if (endShownFor === attempt.id) return;
    endShownFor = attempt.id;
    var state = attempt;
    var end = ui.end;
    end.textContent = "";
    end.hidden = false;
    var heading = F.el("h2", { id: "end-title", text: _("Game over") });
    end.setAttribute("aria-labelledby", "end-title");
    end.appendChild(heading);
    end.appendChild(F.el("span", { class: "badge" + (state.official ? "" : " practice"), text: state.official ? _("Official") : _("Practice") }));
    end.appendChild(F.el("div", { class: "final", "data-role": "final-score", text: F.fmt(state.score) }));
    if (par) {
      var diff = state.score - par;
      var vs = diff >= 0
        ? F.interpolate(_("%(diff)s above par (%(par)s)"), { diff: F.fmt(diff), par: F.fmt(par) }, true)
        : F.interpolate(_("%(diff)s below par (%(par)s)"), { diff: F.fmt(-diff), par: F.fmt(par) }, true);
      end.appendChild(F.el("p", { class: "vs-par", text: vs }));
    }
    if (state.finalised_at_close) {
      end.appendChild(F.el("p", { class: "notice", text: _("The day closed before this game ended: its banked points count.") }));
    }
    // Held by the foresight check: the score stands, the leaderboard waits for an operator.
    if (state.held) end.appendChild(F.el("p", { class: "notice", "data-role": "held", text: state.held_note }));
    var rank = F.el("p", { class: "rank", "data-role": "rank", text: state.official ? _("Ranking…") : _("Practice games are not ranked.") });
    end.appendChild(rank);
    var figure = F.el("figure", { class: "histogram", "data-role": "end-histogram", hidden: true });
    end.appendChild(figure);

    var strip = "";
    for (var n = 1; n <= TURNS; n++) strip += turnEmoji(turnOf(state, n));
    end.appendChild(F.el("p", { class: "turn-strip", "aria-hidden": "true", text: strip }));
    end.appendChild(F.el("p", { class: "legend", text: _("🟥 Farkle · 🟨 under 500 · 🟩 500 to 999 · 🟦 1,000 or more · ⬜ nothing banked") }));

    var text = shareText(state);
    var shareStatus = F.el("span", { class: "small muted", "data-role": "share-status", role: "status" });
    var fallback = F.el("div", { class: "share-fallback", "data-role": "share-fallback", hidden: true }, [
      F.el("label", { for: "share-text", text: _("Copy this text to share it:") }),
      F.el("textarea", { id: "share-text", readonly: true, rows: "3", "data-role": "share-text" }),
    ]);
    fallback.querySelector("textarea").value = text;
    var shareButton = F.el("button", { type: "button", class: "btn gold", "data-action": "share" }, ["📋 " + _("Share")]);
    shareButton.addEventListener("click", function () {
      F.copyText(text).then(function (ok) {
        if (ok) {
          shareStatus.textContent = _("Copied! Paste it anywhere.");
          F.announce(_("Result copied to the clipboard."));
        } else {
          fallback.hidden = false;
          var area = fallback.querySelector("textarea");
          area.focus();
          area.select();
          shareStatus.textContent = _("The clipboard is not available here: copy the text below.");
          F.announce(_("The clipboard is not available: the text to share is selected below."));
        }
      });
    });
    var row = F.el("div", { class: "share-row" }, [shareButton]);
    var boardLink = kind === "daily"
      ? (root.dataset.archive ? "#board-title" : "/leaderboard")
      : "#board-title";
    if (kind === "daily" && document.getElementById("board-title")) boardLink = "#board-title";
    row.appendChild(F.el("a", { class: "btn", href: boardLink, text: _("Leaderboard") }));
    if (playable()) {
      // Practice on an open puzzle plays fresh dice of its own; archive play keeps the day's.
      var again = F.el("button", { type: "button", class: "btn", "data-action": "practice", text: puzzle.status === "closed" ? _("Play again (practice, same dice)") : _("Play again (practice, new dice)") });
      again.addEventListener("click", startPractice);
      row.appendChild(again);
    }
    if (state.dice_source === "own") {
      var where = kind === "daily" ? "date=" + root.dataset.date : "code=" + root.dataset.code;
      row.appendChild(F.el("a", { class: "btn", "data-role": "verify-practice", href: "/verify?" + where + "&attempt=" + state.id, text: _("Check these dice") }));
    }
    end.appendChild(row);
    end.appendChild(shareStatus);
    end.appendChild(fallback);
    // Issue 13: the results panel (static/js/results.js): streaks, my distribution, countdown,
    // my groups, and the system share sheet in front of the clipboard.
    if (window.FarkleResults) window.FarkleResults.render(end, { attempt: state, kind: kind, text: text, shareButton: shareButton });

    F.api(boardUrl).then(function (board) {
      var me = board.me && board.me.attempt === state.id ? board.me : null;
      if (state.official && me) {
        var line = F.interpolate(_("Rank %(rank)s of %(players)s"), { rank: F.fmt(me.rank), players: F.fmt(board.players) }, true);
        if (me.percentile !== null && me.percentile !== undefined) {
          line += " · " + F.interpolate(_("you beat %(pct)s of players"), { pct: F.pct(me.percentile / 100, 1) }, true);
        } else {
          line += " · " + _("the first to finish");
        }
        rank.textContent = line;
      } else if (state.official) {
        rank.textContent = state.held ? "" : _("Your rank appears once the result is counted.");
      }
      F.histogram(figure, board.distribution.histogram, {
        mine: state.score,
        par: par,
        mineLabel: _("You"),
        caption: F.interpolate(F.ngettext("%(players)s player · median %(median)s · best %(best)s", "%(players)s players · median %(median)s · best %(best)s", board.players), {
          players: F.fmt(board.players), median: F.fmt(board.distribution.median), best: F.fmt(board.distribution.best),
        }, true),
      });
    }).catch(function () {
      if (state.official) rank.textContent = "";
    });
  }

  /* ---- actions ---- */

  function toggle(position) {
    if (busy || !attempt || attempt.state !== "awaiting_keep" || position >= attempt.dice.length) return;
    var at = selection.indexOf(position);
    if (at >= 0) selection.splice(at, 1);
    else selection.push(position);
    var buttons = ui.dice.querySelectorAll(".die-btn");
    buttons.forEach(function (b) {
      b.setAttribute("aria-pressed", selection.indexOf(parseInt(b.dataset.pos, 10)) >= 0 ? "true" : "false");
    });
    renderSelection();
    selectionSave();
    var chosen = option();
    if (!selection.length) F.announce(_("Nothing selected."));
    else if (chosen) F.announce(F.interpolate(_("Selected %(dice)s: %(points)s points."), { dice: selectedFaces().join(", "), points: F.fmt(chosen.score) }, true));
    else F.announce(F.interpolate(_("Selected %(dice)s: these dice don't score together."), { dice: selectedFaces().join(", ") }, true));
  }

  function selectedFaces() {
    return selection.slice().sort().map(function (p) { return attempt.dice[p]; });
  }

  function setBusy(value) {
    busy = value;
    root.setAttribute("aria-busy", value ? "true" : "false");
    ui.dice.querySelectorAll(".die-btn").forEach(function (b) { b.disabled = value; });
    renderSelection();
  }

  function describeThrow(state) {
    return F.interpolate(_("Turn %(turn)s, throw %(roll)s: %(dice)s."), {
      turn: state.turn, roll: state.roll, dice: state.dice.join(", "),
    }, true);
  }

  /* What happened between two states: a Farkle, hot dice, a bank, a new throw. */
  function transition(prev, next) {
    var number = prev.turn;
    var before = turnOf(prev, number);
    var after = turnOf(next, number);
    var count = function (t) { return t.throws.filter(function (x) { return x.hot_dice; }).length; };
    var messages = [];
    var assertive = false;
    selection = [];
    if (count(after) > count(before)) {
      hotTurn = number;
      showBanner("hot", _("Hot dice!"), _("All the dice come back"), false);
      messages.push(_("Hot dice! All the dice come back."));
    }
    if (after.farkle && !before.farkle) {
      var lost = after.throws.reduce(function (sum, t) { return sum + t.points; }, 0);
      var last = after.throws[after.throws.length - 1];
      farkled = { turn: number, dice: last.dice, lost: lost };
      showBanner("farkle", _("Farkle!"), lost
        ? F.interpolate(_("%(points)s points lost"), { points: F.fmt(lost) }, true)
        : _("Nothing scores"), true);
      messages.push(F.interpolate(_("Farkle! Turn %(turn)s threw %(dice)s: nothing scores."), { turn: number, dice: last.dice.join(", ") }, true));
      if (lost) messages.push(F.interpolate(_("%(points)s points lost."), { points: F.fmt(lost) }, true));
      assertive = true;
    } else if (after.done && !before.done) {
      if (count(after) === count(before)) showBanner("bank", "+" + F.fmt(after.points), _("banked"), false);
      messages.push(F.interpolate(_("Banked %(points)s. Score %(score)s."), { points: F.fmt(after.points), score: F.fmt(next.score) }, true));
    }
    if (next.state === "awaiting_keep") {
      if (!(after.farkle && !before.farkle) && !(count(after) > count(before))) hideBanner();
      messages.push(describeThrow(next));
    }
    if (next.state === "finished") {
      messages.push(F.interpolate(_("Game over: %(score)s points."), { score: F.fmt(next.score) }, true));
    }
    attempt = next;
    selectionSave();
    if (rethrown()) messages.push(_("A pair that scores nothing is not a Farkle here: roll these dice again, your points stay."));
    if (next.state === "awaiting_keep") {
      ui.dice.classList.remove("rolling");
      void ui.dice.offsetWidth;
    }
    render();
    if (next.state === "awaiting_keep") ui.dice.classList.add("rolling");
    F.announce(messages.join(" "), assertive);
    if (next.state === "finished") {
      document.dispatchEvent(new CustomEvent("farkle:finished", { detail: { attempt: next.id } }));
      ui.end.scrollIntoView({ block: "start", behavior: "smooth" });
    }
  }

  function keepFocus() {
    var active = document.activeElement;
    // Focus inside a panel that was just hidden (the "Play again" button of the end panel) is
    // about to fall back to the page body: move it on to the game instead.
    var shown = active && !active.closest("[hidden]") && !active.disabled;
    if (active && active !== document.body && root.contains(active) && shown) return;
    if (attempt && attempt.state === "finished") {
      ui.end.focus();
      return;
    }
    var target = attempt && attempt.state === "awaiting_keep" ? ui.dice.querySelector(".die-btn") : ui.roll;
    if (target && !target.disabled) target.focus({ preventScroll: true });
  }

  function send(body) {
    return F.api("/api/attempts/" + attempt.id + "/actions", {
      method: "POST",
      body: Object.assign({ step: attempt.step }, body),
    });
  }

  function perform(run) {
    if (busy) return;
    showError("");
    setBusy(true);
    run().then(
      function () { setBusy(false); keepFocus(); },
      function (err) {
        setBusy(false);
        if (err && err.data && err.data.attempt) {
          // Refused with the attempt as it stands (a stale step, a closed day): resync to it.
          attempt = err.data.attempt;
          selection = [];
          render();
        }
        showError(F.errorMessage(err));
        F.announce(F.errorMessage(err), true);
        keepFocus();
      }
    );
  }

  function start() {
    return F.api(base + "/attempts", { method: "POST" }).then(function (created) {
      attempt = created;
      puzzle.my_attempts.push({ id: created.id, official: created.official, state: created.state });
      farkled = null;
      hotTurn = null;
      return created;
    });
  }

  function roll() {
    perform(function () {
      var ready = attempt && attempt.state === "awaiting_roll" ? Promise.resolve(attempt) : start();
      return ready.then(function () {
        var prev = attempt;
        return send({ action: "roll" }).then(function (next) {
          if (farkled) hideBanner();
          transition(prev, next);
        });
      });
    });
  }

  function keep(then) {
    var chosen = option();
    if (!chosen) return;
    perform(function () {
      var prev = attempt;
      return send({ action: "keep", dice: selection.slice().sort(), then: then }).then(function (next) {
        transition(prev, next);
      });
    });
  }

  function startPractice() {
    perform(function () {
      return start().then(function () {
        selection = [];
        hideBanner();
        render();
        ui.board.scrollIntoView({ block: "start", behavior: "smooth" });
        // The Roll button is still disabled here (busy): perform() focuses it once enabled.
      });
    });
  }

  ui.roll.addEventListener("click", roll);
  ui.keepRoll.addEventListener("click", function () { keep("roll"); });
  ui.keepBank.addEventListener("click", function () { keep("bank"); });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (!puzzle || busy) return;
    var key = event.key;
    if (/^[1-6]$/.test(key)) {
      if (attempt && attempt.state === "awaiting_keep") {
        event.preventDefault();
        toggle(parseInt(key, 10) - 1);
      }
    } else if (key === "r" || key === "R") {
      if (!attempt || attempt.state === "awaiting_roll") {
        if (!ui.roll.disabled && !ui.roll.hidden) { event.preventDefault(); roll(); }
      } else if (attempt.state === "awaiting_keep" && option()) {
        event.preventDefault();
        keep("roll");
      }
    } else if (key === "b" || key === "B") {
      if (attempt && attempt.state === "awaiting_keep" && option() && option().can_bank) {
        event.preventDefault();
        keep("bank");
      }
    }
  });

  /* ---- loading: resume an unfinished game, or show the last finished one ---- */

  function load() {
    render();
    var url = kind === "daily" ? base : base;
    F.api(url).then(function (data) {
      puzzle = data;
      var mine = data.my_attempts || [];
      var unfinished = mine.filter(function (a) { return a.state !== "finished"; });
      var pick = unfinished.filter(function (a) { return a.official; })[0] || unfinished[unfinished.length - 1];
      if (!pick && !root.dataset.archive) {
        pick = mine.filter(function (a) { return a.official; })[0];
      }
      if (!pick) {
        render();
        return;
      }
      return F.api("/api/attempts/" + pick.id).then(function (state) {
        attempt = state;
        selection = selectionRestore();
        var last = state.turn > 1 ? turnOf(state, state.turn - 1) : null;
        if (state.state === "awaiting_roll" && last && last.farkle) {
          farkled = { turn: last.turn, dice: last.throws[last.throws.length - 1].dice, lost: 0 };
        }
        render();
        if (state.state !== "finished") F.announce(_("Game resumed.") + (state.state === "awaiting_keep" ? " " + describeThrow(state) : ""));
      });
    }).catch(function (err) {
      render();
      showError(F.errorMessage(err));
    });
  }

  root.dataset.archive = root.dataset.archive || "";
  load();
})();
