/* /learn: a first game that teaches, played in the page alone (no API call, nothing saved).
 * The throws, the valid keeps and every number come from the server's engine (#learn-data);
 * this script only walks through them and says which keep each step asks for. */
(function () {
  "use strict";

  var F = window.Farkle;
  var _ = F.gettext;

  function say(format, values) {
    return F.interpolate(format, values, true);
  }

  function sameKeep(a, b) {
    return a.length === b.length && a.every(function (p, i) { return p === b[i]; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-learn]");
    var source = document.getElementById("learn-data");
    if (!root || !source) return;
    var data = JSON.parse(source.textContent);
    var steps = data.steps;
    var ui = {};
    root.querySelectorAll("[data-role]").forEach(function (node) { ui[node.dataset.role] = node; });
    var go = root.querySelector('[data-action="go"]');
    var index = 0;
    var selected = [];
    var kept = [];

    function selection() {
      return selected.slice().sort(function (a, b) { return a - b; });
    }

    function showSay(name) {
      ui.say.querySelectorAll("[data-say]").forEach(function (p) {
        p.hidden = p.dataset.say !== name;
      });
      var shown = ui.say.querySelector('[data-say="' + name + '"]');
      if (shown) F.announce(shown.textContent);
    }

    function drawKept() {
      ui.kept.textContent = "";
      if (!kept.length) {
        ui.kept.appendChild(F.el("span", { class: "empty", text: _("Nothing kept yet.") }));
        return;
      }
      kept.forEach(function (group) {
        var node = F.el("span", { class: "group", role: "img", "aria-label": say(_("%(dice)s for %(points)s"), { dice: group.dice.join(", "), points: F.fmt(group.points) }) });
        group.dice.forEach(function (f) { node.appendChild(F.die(f, "mini", false)); });
        node.appendChild(F.el("span", { class: "pts", "aria-hidden": "true", text: "+" + F.fmt(group.points) }));
        ui.kept.appendChild(node);
      });
    }

    var bannerTimer = null;

    /* A Farkle's banner stays for its step; the others go after a moment, off the kept tray. */
    function banner(word, kind) {
      window.clearTimeout(bannerTimer);
      ui.banner.className = "banner " + kind;
      ui["banner-word"].textContent = word;
      ui.banner.hidden = false;
      if (kind !== "farkle") bannerTimer = window.setTimeout(function () { ui.banner.hidden = true; }, 1500);
    }

    /* What the current selection is worth, from the engine's keeps of this throw. */
    function updateSelection() {
      var step = steps[index];
      var chosen = selection();
      ui.dice.querySelectorAll(".die-btn").forEach(function (button) {
        button.setAttribute("aria-pressed", chosen.indexOf(parseInt(button.dataset.pos, 10)) >= 0 ? "true" : "false");
      });
      var keep = step.keeps.filter(function (k) { return sameKeep(k.positions, chosen); })[0];
      var target = sameKeep(chosen, step.keep);
      ui.dice.classList.toggle("refused", chosen.length > 0 && !keep);
      ui.selection.className = "selection";
      if (!chosen.length) {
        ui.selection.textContent = _("Pick the dice to keep.");
      } else if (!keep) {
        ui.selection.textContent = _("These dice don't score together: every kept die must score.");
        ui.selection.classList.add("bad");
      } else {
        var text = say(_("Keep for %(points)s (turn: %(total)s)"), { points: F.fmt(keep.points), total: F.fmt(step.at_stake_before + keep.points) });
        if (!target) text += " · " + _("This step asks for other dice.");
        ui.selection.textContent = text;
        ui.selection.classList.add(target ? "ok" : "bad");
      }
      go.disabled = !target;
    }

    function drawDice(step) {
      ui.dice.textContent = "";
      ui.dice.classList.remove("farkled", "refused", "rolling");
      if (step.kind === "farkle") {
        ui.dice.classList.add("farkled");
        step.throw.forEach(function (face) { ui.dice.appendChild(F.die(face)); });
        return;
      }
      step.throw.forEach(function (face, position) {
        ui.dice.appendChild(F.el("button", {
          type: "button", class: "die-btn", "data-pos": String(position), "data-face": String(face),
          "aria-pressed": "false",
          "aria-label": say(_("Die %(n)s: %(face)s"), { n: position + 1, face: face }),
        }, [F.die(face, null, false), F.el("span", { class: "pos", "aria-hidden": "true", text: String(position + 1) })]));
      });
      void ui.dice.offsetWidth; // restart the roll animation for the new throw
      ui.dice.classList.add("rolling");
    }

    function draw(focus) {
      window.clearTimeout(bannerTimer);
      ui.banner.hidden = true;
      if (index >= steps.length) {
        ui.progress.textContent = "";
        ui.score.textContent = F.fmt(data.score);
        ui["at-stake"].textContent = F.fmt(0);
        ui.dice.textContent = "";
        ui.selection.textContent = "";
        drawKept();
        ui.skip.hidden = true;
        go.hidden = true;
        ui.play.hidden = false;
        root.dataset.step = "done";
        banner(_("Banked!"), "bank");
        showSay("done");
        if (focus) ui.play.focus();
        return;
      }
      var step = steps[index];
      root.dataset.step = step.name;
      ui.progress.textContent = say(_("Step %(n)s of %(total)s"), { n: index + 1, total: steps.length });
      ui.score.textContent = F.fmt(index ? steps[index - 1].score_after : 0);
      ui["at-stake"].textContent = F.fmt(step.at_stake_before);
      selected = [];
      drawKept();
      drawDice(step);
      go.textContent = go.dataset["label" + step.then.charAt(0).toUpperCase() + step.then.slice(1)];
      showSay(step.name);
      if (step.kind === "farkle") {
        banner(_("Farkle!"), "farkle");
        ui.selection.className = "selection bad";
        ui.selection.textContent = "";
        go.disabled = false;
        if (focus) go.focus();
      } else {
        updateSelection();
        if (focus) ui.dice.querySelector(".die-btn").focus();
      }
    }

    ui.dice.addEventListener("click", function (event) {
      var button = event.target.closest(".die-btn");
      if (!button) return;
      var position = parseInt(button.dataset.pos, 10);
      var at = selected.indexOf(position);
      if (at >= 0) selected.splice(at, 1);
      else selected.push(position);
      updateSelection();
    });

    go.addEventListener("click", function () {
      var step = steps[index];
      if (step.kind === "farkle") {
        kept = [];
      } else {
        if (!sameKeep(selection(), step.keep)) return;
        kept.push({ dice: step.keep.map(function (p) { return step.throw[p]; }), points: step.points });
        // Hot dice: every die has scored, the turn goes on with all six back in hand (the
        // kept tray keeps them). After the bank the tray shows the turn just banked.
      }
      index += 1;
      draw(true);
      if (step.hot_dice) banner(_("Hot dice!"), "hot");
    });

    // Digits pick dice as on the game's board.
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (!/^[1-6]$/.test(event.key)) return;
      var button = ui.dice.querySelector('.die-btn[data-pos="' + (parseInt(event.key, 10) - 1) + '"]');
      if (button) button.click();
    });

    draw(false);
  });
})();
