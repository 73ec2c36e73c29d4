/* The game board's controller: takes the player's input (clicks, keys), calls the API, keeps what
 * it answered, and renders the view-model of that (play/model.js, play/view.js). */
(function () {
  "use strict";
  var F = window.Farkle;
  var P = window.FarklePlay;
  var _ = F.gettext;

  var root = document.querySelector("[data-play]");
  if (!root) return;

  var config = {
    kind: root.dataset.kind,
    date: root.dataset.date,
    code: root.dataset.code,
    par: parseInt(root.dataset.par, 10) || null,
    handSize: parseInt(root.dataset.dice, 10) || 6,
    shareLabel: root.dataset.shareLabel,
    shareUrl: root.dataset.shareUrl,
    archive: !!root.dataset.archive,
    boardOnPage: !!document.getElementById("board-title"),
  };
  var base = config.kind === "daily" ? "/api/daily/" + config.date : "/api/challenges/" + config.code;
  var renderer = new P.Renderer(root);

  // Everything the board shows follows from these, as the API last answered.
  var model = { config: config, puzzle: null, attempt: null, selection: [], busy: false, events: [], board: undefined, share: null };
  var vm = null;

  function render() {
    vm = P.model.view(model);
    renderer.render(vm);
    clockShow();
    return vm;
  }

  /* ---- a timed challenge's clock (seed 001): the server's turn_deadline, so a reload keeps it ---- */

  var clock = { timer: null, warned: null, expired: null };

  function clockShow() {
    var box = root.querySelector('[data-role="clock"]');
    var attempt = model.attempt;
    // Shown from the puzzle's options before the first game starts, then from the attempt's.
    var options = (attempt && attempt.options) || (model.puzzle && model.puzzle.options) || {};
    var seconds = options.turn_seconds;
    box.hidden = !seconds || (attempt && attempt.state === "finished");
    var deadline = !box.hidden && attempt && attempt.turn_deadline ? Date.parse(attempt.turn_deadline) : null;
    var text = box.querySelector('[data-role="clock-text"]');
    var warning = box.querySelector('[data-role="clock-warning"]');
    if (!deadline) {
      window.clearInterval(clock.timer);
      clock.timer = null;
      box.classList.remove("warn");
      warning.textContent = "";
      if (seconds) text.textContent = F.interpolate(_("%(seconds)s seconds per turn, from its first throw."), { seconds: seconds }, true);
      return;
    }
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    text.textContent = F.interpolate(_("Time left this turn: %(seconds)s s"), { seconds: left }, true);
    box.classList.toggle("warn", left <= 10);
    if (left <= 10 && clock.warned !== attempt.turn_deadline) {
      clock.warned = attempt.turn_deadline;
      warning.textContent = _("10 seconds left!");
    }
    if (left > 10) warning.textContent = "";
    if (!clock.timer) clock.timer = window.setInterval(clockShow, 250);
    if (left === 0 && clock.expired !== attempt.turn_deadline && !model.busy) {
      // The server ends the turn when its time is up; a read shows it.
      clock.expired = attempt.turn_deadline;
      F.api("/api/attempts/" + attempt.id).then(function (state) {
        var before = model.attempt;
        if (before && before.id === state.id && state.step !== before.step) {
          said(received(state, timedOut(before, state)).announcement);
        }
      }).catch(function () {});
    }
  }

  /* The turn the clock ended, as the server recorded it, as the event an action would have
     brought: the banner and the screen reader say it as they say a Farkle (issue 40). */
  function timedOut(before, state) {
    var ended = state.turns.filter(function (t) { return t.turn === before.turn; })[0];
    return ended && ended.timed_out ? [{ kind: "timed_out", turn: before.turn, points: before.turn_points }] : [];
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function scrollTo(node) {
    node.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  }

  /* ---- the selection survives a reload: kept per attempt and step, in this tab only ---- */

  function selectionKey() {
    return "farkle:selection:" + model.attempt.id;
  }

  function selectionSave() {
    if (!model.attempt) return;
    try {
      if (model.selection.length && model.attempt.state === "awaiting_keep") {
        window.sessionStorage.setItem(selectionKey(), JSON.stringify({ step: model.attempt.step, dice: model.selection }));
      } else {
        window.sessionStorage.removeItem(selectionKey());
      }
    } catch (e) { /* storage refused (private mode, quota): the selection just isn't kept */ }
  }

  function selectionRestore() {
    var saved = null;
    try { saved = JSON.parse(window.sessionStorage.getItem(selectionKey()) || "null"); } catch (e) { saved = null; }
    return P.model.restoredSelection(model.attempt, saved);
  }

  /* ---- what the API answers ---- */

  function loadBoard(attempt) {
    model.board = undefined;
    F.api(base + "/leaderboard").then(function (board) {
      if (model.attempt !== attempt) return;
      model.board = board;
      render();
    }).catch(function () {
      if (model.attempt !== attempt) return;
      model.board = null;
      render();
    });
  }

  /* A new state of the attempt, with the events that made it. */
  function received(attempt, events) {
    var wasFinished = model.attempt && model.attempt.id === attempt.id && model.attempt.state === "finished";
    model.attempt = attempt;
    model.events = events || [];
    model.selection = [];
    model.share = null;
    selectionSave();
    if (attempt.state === "finished" && !wasFinished) loadBoard(attempt);
    return render();
  }

  function said(announcement) {
    var text = announcement.parts.map(P.words).join(" ");
    if (text) F.announce(text, announcement.assertive);
  }

  function acted(attempt) {
    var shown = received(attempt, attempt.events);
    said(shown.announcement);
    if (attempt.state === "finished") {
      document.dispatchEvent(new CustomEvent("farkle:finished", { detail: { attempt: attempt.id } }));
      scrollTo(renderer.ui.end);
    }
  }

  function keepFocus() {
    var active = document.activeElement;
    // Focus inside a panel that was just hidden (the "Play again" button of the end panel) is
    // about to fall back to the page body: move it on to the game instead.
    var shown = active && !active.closest("[hidden]") && !active.disabled;
    if (active && active !== document.body && root.contains(active) && shown) return;
    if (model.attempt && model.attempt.state === "finished") {
      renderer.ui.end.focus();
      return;
    }
    var target = model.attempt && model.attempt.state === "awaiting_keep" ? renderer.ui.dice.querySelector(".die-btn") : renderer.ui.roll;
    if (target && !target.disabled) target.focus({ preventScroll: true });
  }

  function send(body) {
    return F.api("/api/attempts/" + model.attempt.id + "/actions", {
      method: "POST",
      body: Object.assign({ step: model.attempt.step }, body),
    });
  }

  function perform(run) {
    if (model.busy) return;
    renderer.error("");
    model.busy = true;
    render();
    run().then(
      function () {
        model.busy = false;
        render();
        keepFocus();
      },
      function (err) {
        model.busy = false;
        if (err && err.data && err.data.attempt) {
          // Refused with the attempt as it stands (a stale step, a closed day, a turn whose
          // time ran out): resync to it.
          var before = model.attempt;
          received(err.data.attempt, before ? timedOut(before, err.data.attempt) : []);
        } else {
          render();
        }
        renderer.error(F.errorMessage(err));
        F.announce(F.errorMessage(err), true);
        keepFocus();
      }
    );
  }

  function start() {
    return F.api(base + "/attempts", { method: "POST" }).then(function (created) {
      model.puzzle.my_attempts.push({ id: created.id, official: created.official, state: created.state });
      received(created, created.events);
      return created;
    });
  }

  /* ---- input ---- */

  function roll() {
    perform(function () {
      var ready = model.attempt && model.attempt.state === "awaiting_roll" ? Promise.resolve() : start();
      return ready.then(function () { return send({ action: "roll" }); }).then(acted);
    });
  }

  function keep(then) {
    if (!P.model.option(model.attempt, model.selection)) return;
    var dice = model.selection.slice().sort();
    perform(function () {
      return send({ action: "keep", dice: dice, then: then }).then(acted);
    });
  }

  function toggle(position) {
    var attempt = model.attempt;
    if (model.busy || !attempt || attempt.state !== "awaiting_keep" || position >= attempt.dice.length) return;
    var at = model.selection.indexOf(position);
    if (at >= 0) model.selection.splice(at, 1);
    else model.selection.push(position);
    selectionSave();
    var shown = render();
    var faces = model.selection.slice().sort().map(function (p) { return attempt.dice[p]; }).join(", ");
    if (!model.selection.length) F.announce(_("Nothing selected."));
    else if (shown.chosen) F.announce(F.interpolate(_("Selected %(dice)s: %(points)s points."), { dice: faces, points: F.fmt(shown.chosen.score) }, true));
    else F.announce(F.interpolate(_("Selected %(dice)s: these dice don't score together."), { dice: faces }, true));
  }

  function startPractice() {
    perform(function () {
      return start().then(function () {
        scrollTo(root.querySelector('[data-role="board"]'));
        // The Roll button is still disabled here (busy): perform() focuses it once enabled.
      });
    });
  }

  function share() {
    var text = P.shareText(vm.end.share);
    F.copyText(text).then(function (ok) {
      model.share = ok ? "copied" : "fallback";
      render();
      if (ok) {
        F.announce(_("Result copied to the clipboard."));
        return;
      }
      var area = root.querySelector('[data-role="share-text"]');
      area.focus();
      area.select();
      F.announce(_("The clipboard is not available: the text to share is selected below."));
    });
  }

  renderer.ui.roll.addEventListener("click", roll);
  renderer.ui.keepRoll.addEventListener("click", function () { keep("roll"); });
  renderer.ui.keepBank.addEventListener("click", function () { keep("bank"); });
  renderer.ui.dice.addEventListener("click", function (event) {
    var button = event.target.closest(".die-btn");
    if (button) toggle(parseInt(button.dataset.pos, 10));
  });
  renderer.ui.end.addEventListener("click", function (event) {
    var action = event.target.closest("[data-action]");
    if (!action) return;
    if (action.dataset.action === "share") share();
    else if (action.dataset.action === "practice") startPractice();
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (!vm || !model.puzzle || model.busy) return;
    var key = event.key;
    if (/^[1-6]$/.test(key)) {
      if (vm.state === "awaiting_keep") {
        event.preventDefault();
        toggle(parseInt(key, 10) - 1);
      }
    } else if (key === "r" || key === "R") {
      if (!vm.buttons.roll.hidden && !vm.buttons.roll.disabled) {
        event.preventDefault();
        roll();
      } else if (!vm.buttons.keepRoll.hidden && !vm.buttons.keepRoll.disabled) {
        event.preventDefault();
        keep("roll");
      }
    } else if (key === "b" || key === "B") {
      if (!vm.buttons.keepBank.hidden && !vm.buttons.keepBank.disabled) {
        event.preventDefault();
        keep("bank");
      }
    }
  });

  /* ---- loading: resume an unfinished game, or show the last finished one ---- */

  function load() {
    render();
    F.api(base).then(function (data) {
      model.puzzle = data;
      var mine = data.my_attempts || [];
      var unfinished = mine.filter(function (a) { return a.state !== "finished"; });
      // A retry started from a replay (issue 40) names its attempt in the address.
      var named = /^#attempt-(\d+)$/.exec(window.location.hash);
      var asked = named ? mine.filter(function (a) { return a.id === parseInt(named[1], 10); })[0] : null;
      var pick = asked || unfinished.filter(function (a) { return a.official; })[0] || unfinished[unfinished.length - 1];
      if (!pick && !config.archive) pick = mine.filter(function (a) { return a.official; })[0];
      if (!pick) {
        render();
        return;
      }
      return F.api("/api/attempts/" + pick.id).then(function (state) {
        model.attempt = state;
        model.events = [];
        model.selection = selectionRestore();
        if (state.state === "finished") loadBoard(state);
        var shown = render();
        if (asked) scrollTo(root);
        if (state.state !== "finished") {
          var resumed = _("Game resumed.");
          if (state.state === "awaiting_keep") resumed += " " + P.words({ id: "throw", args: { turn: state.turn, roll: state.roll, dice: state.dice } });
          F.announce(resumed);
        }
        return shown;
      });
    }).catch(function (err) {
      render();
      renderer.error(F.errorMessage(err));
    });
  }

  load();
})();
